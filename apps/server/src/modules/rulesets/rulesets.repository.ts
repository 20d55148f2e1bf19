import type { ExcludedSku, Ruleset, RulesetAdvanced, RulesetStatus } from '@loyalty/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import { anyUuid } from '../../db/any-of';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { fetchListPage, type ListOrder } from '../../lib/list-page';
import { listSource } from '../../lib/list-stream';
import { amountNumber, amountText } from '../../lib/money';
import { likeContains, toIso } from '../../lib/paging';
import type { StoredEarningRules } from '../ledger/earning-rules';

/**
 * Whether the ruleset aliased `alias` may be in force: its activeFrom has passed and it is not retired.
 * The one definition of "eligible"; the one in force is the highest version among the eligible.
 */
export function eligibleSql(alias: string) {
  const t = sql.table(alias);
  return sql<SqlBool>`(${t}.active_from <= now() and ${t}.retired_at is null)`;
}

/** Status and "in force" come from the database clock, so every server instance derives the same answer. */
const statusSql = sql<RulesetStatus>`case
  when rulesets.retired_at is not null then 'Retired'
  when rulesets.active_from is null then 'Draft'
  when rulesets.active_from <= now() then 'Active'
  else 'Scheduled' end`;
const inForceIdSql = sql<string>`(select r2.id from rulesets r2 where ${eligibleSql('r2')}
  order by r2.version desc limit 1)`;

function rulesetQuery(db: Executor) {
  return db
    .selectFrom('rulesets')
    .select([
      'rulesets.id',
      'rulesets.version',
      'rulesets.percent',
      'rulesets.earning_rules',
      'rulesets.active_from',
      'rulesets.created_by',
      'rulesets.created_at',
      'rulesets.retired_at',
      'rulesets.retired_by',
      statusSql.as('status'),
      sql<boolean>`rulesets.id is not distinct from ${inForceIdSql}`.as('in_force'),
    ]);
}

type RulesetRow = Awaited<ReturnType<ReturnType<typeof rulesetQuery>['executeTakeFirstOrThrow']>>;

function toRuleset(row: RulesetRow): Ruleset {
  const advanced = row.earning_rules as StoredEarningRules;
  return {
    id: row.id,
    version: Number(row.version),
    status: row.status,
    config: {
      percent: amountNumber(row.percent),
      minSpend: advanced?.minSpend ?? null,
      maxPointsPerReceipt: advanced?.maxPointsPerReceipt ?? null,
      maxPointsPerCardPerDay: advanced?.maxPointsPerCardPerDay ?? null,
      rules: advanced?.rules ?? [],
    },
    activeFrom: toIso(row.active_from),
    createdBy: row.created_by,
    createdAt: toIso(row.created_at) as string,
    inForce: row.in_force,
    retiredAt: toIso(row.retired_at),
    retiredBy: row.retired_by,
  };
}

export async function findRulesetById(db: Executor, id: string): Promise<Ruleset | undefined> {
  const row = await rulesetQuery(db).where('rulesets.id', '=', id).executeTakeFirst();
  return row ? toRuleset(row) : undefined;
}

export async function rulesetVersionExists(db: Executor, version: number): Promise<boolean> {
  const row = await db.selectFrom('rulesets').select('id').where('version', '=', version).executeTakeFirst();
  return row !== undefined;
}

export async function insertRuleset(
  trx: Tx,
  values: {
    version: number;
    percent: number;
    earningRules: RulesetAdvanced | null;
    activeFrom: string | null;
    createdBy: string;
  },
): Promise<Ruleset> {
  const { id } = await trx
    .insertInto('rulesets')
    .values({
      version: values.version,
      percent: amountText(values.percent),
      earning_rules: values.earningRules === null ? null : JSON.stringify(values.earningRules),
      active_from: values.activeFrom,
      created_by: values.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await findRulesetById(trx, id))!;
}

/** Locks the ruleset row for a state change (retire). */
export async function lockRuleset(trx: Tx, id: string): Promise<Ruleset | undefined> {
  const locked = await trx
    .selectFrom('rulesets')
    .select('id')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return locked ? findRulesetById(trx, id) : undefined;
}

export async function markRulesetRetired(trx: Tx, id: string, by: string): Promise<Ruleset> {
  await trx
    .updateTable('rulesets')
    .set({ retired_at: sql`now()`, retired_by: by })
    .where('id', '=', id)
    .execute();
  return (await findRulesetById(trx, id))!;
}

export interface RulesetFilter {
  page: number;
  size: number;
  search?: string;
  status?: RulesetStatus;
  sort?: { field: 'version' | 'activeFrom' | 'createdAt' | 'percent'; direction: 'asc' | 'desc' };
}

const sortColumns = {
  version: 'rulesets.version',
  activeFrom: 'rulesets.active_from',
  createdAt: 'rulesets.created_at',
  percent: 'rulesets.percent',
} as const;

function statusCondition(status: RulesetStatus): Expression<SqlBool> {
  if (status === 'Retired') return sql<SqlBool>`rulesets.retired_at is not null`;
  if (status === 'Draft') return sql<SqlBool>`rulesets.retired_at is null and rulesets.active_from is null`;
  if (status === 'Active') return eligibleSql('rulesets');
  return sql<SqlBool>`rulesets.retired_at is null and rulesets.active_from > now()`;
}

/** The filtered rulesets with their columns and the order of the sort asked for: the list's pages and its export. */
function rulesetsList(db: Db, filter: Omit<RulesetFilter, 'page' | 'size'>) {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.status) conditions.push(statusCondition(filter.status));
  if (filter.search)
    conditions.push(sql<SqlBool>`rulesets.version::text like ${likeContains(filter.search)}`);
  const sort = filter.sort ?? { field: 'version', direction: 'desc' };
  const order: ListOrder = {
    column: sortColumns[sort.field],
    direction: sort.direction,
    nulls: 'ends',
    tiebreak: { column: 'rulesets.version', direction: 'desc' },
    nullable: sort.field === 'activeFrom',
  };
  return {
    rows: rulesetQuery(db).where((eb) => eb.and(conditions)),
    count: db.selectFrom('rulesets').where((eb) => eb.and(conditions)),
    order,
  };
}

export async function listRulesets(
  db: Db,
  filter: RulesetFilter,
): Promise<{ rows: Ruleset[]; total: number }> {
  const { order, ...query } = rulesetsList(db, filter);
  const { rows, total } = await fetchListPage(query, order, filter);
  return { rows: rows.map(toRuleset), total };
}

export function rulesetsExportSource(db: Db, filter: Omit<RulesetFilter, 'page' | 'size'>) {
  const { rows, order } = rulesetsList(db, filter);
  return listSource(rows, order, (page) => page.map(toRuleset));
}

export function toExcludedSku(row: {
  sku: string;
  description: string | null;
  category: string | null;
  created_at: Date;
}): ExcludedSku {
  return {
    sku: row.sku,
    description: row.description,
    category: row.category,
    createdAt: toIso(row.created_at) as string,
  };
}

/** Which of these POS key ids do not exist (a rule's stores must be known POS keys). */
export async function unknownPosIds(db: Executor, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const known = await db
    .selectFrom('pos_keys')
    .select('id')
    .where('id', '=', anyUuid([...ids]))
    .execute();
  const found = new Set(known.map((k) => k.id));
  return ids.filter((id) => !found.has(id));
}
