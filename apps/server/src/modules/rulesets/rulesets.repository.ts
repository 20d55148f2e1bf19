import type { ExcludedSku, Ruleset, RulesetStatus } from '@loyalty/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';
import { likeContains, toIso, toNumber } from '../../lib/paging';

type Executor = Db | Tx;

/** Status and "in force" come from the database clock, so every server instance derives the same answer. */
const statusSql = sql<RulesetStatus>`case
  when rulesets.active_from is null then 'Draft'
  when rulesets.active_from <= now() then 'Active'
  else 'Scheduled' end`;
const inForceIdSql = sql<string>`(select r2.id from rulesets r2 where r2.active_from <= now()
  order by r2.version desc limit 1)`;

function rulesetQuery(db: Executor) {
  return db
    .selectFrom('rulesets')
    .select([
      'rulesets.id',
      'rulesets.version',
      'rulesets.percent',
      'rulesets.active_from',
      'rulesets.created_by',
      'rulesets.created_at',
      statusSql.as('status'),
      sql<boolean>`rulesets.id is not distinct from ${inForceIdSql}`.as('in_force'),
    ]);
}

type RulesetRow = Awaited<ReturnType<ReturnType<typeof rulesetQuery>['executeTakeFirstOrThrow']>>;

function toRuleset(row: RulesetRow): Ruleset {
  return {
    id: row.id,
    version: Number(row.version),
    status: row.status,
    config: { percent: toNumber(row.percent) },
    activeFrom: toIso(row.active_from),
    createdBy: row.created_by,
    createdAt: toIso(row.created_at) as string,
    inForce: row.in_force,
  };
}

export async function findRulesetById(db: Executor, id: string): Promise<Ruleset | undefined> {
  const row = await rulesetQuery(db).where('rulesets.id', '=', id).executeTakeFirst();
  return row ? toRuleset(row) : undefined;
}

/** The ruleset the POS applies: the highest version whose activeFrom is set and not in the future. */
export async function findRulesetInForce(db: Executor): Promise<Ruleset | undefined> {
  const row = await rulesetQuery(db)
    .where('rulesets.active_from', '<=', sql<Date>`now()`)
    .orderBy('rulesets.version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRuleset(row) : undefined;
}

export async function rulesetVersionExists(db: Executor, version: number): Promise<boolean> {
  const row = await db.selectFrom('rulesets').select('id').where('version', '=', version).executeTakeFirst();
  return row !== undefined;
}

export async function insertRuleset(
  trx: Tx,
  values: { version: number; percent: number; activeFrom: string | null; createdBy: string },
): Promise<Ruleset> {
  const { id } = await trx
    .insertInto('rulesets')
    .values({
      version: values.version,
      percent: values.percent.toFixed(2),
      active_from: values.activeFrom,
      created_by: values.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
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
  if (status === 'Draft') return sql<SqlBool>`rulesets.active_from is null`;
  if (status === 'Active') return sql<SqlBool>`rulesets.active_from <= now()`;
  return sql<SqlBool>`rulesets.active_from > now()`;
}

export async function listRulesets(
  db: Db,
  filter: RulesetFilter,
): Promise<{ rows: Ruleset[]; total: number }> {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.status) conditions.push(statusCondition(filter.status));
  if (filter.search)
    conditions.push(sql<SqlBool>`rulesets.version::text like ${likeContains(filter.search)}`);
  const sort = filter.sort ?? { field: 'version', direction: 'desc' };
  const [rows, count] = await Promise.all([
    rulesetQuery(db)
      .where((eb) => eb.and(conditions))
      .orderBy(sortColumns[sort.field], (ob) =>
        sort.direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
      )
      .orderBy('rulesets.version', 'desc')
      .limit(filter.size)
      .offset(filter.page * filter.size)
      .execute(),
    db
      .selectFrom('rulesets')
      .where((eb) => eb.and(conditions))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRuleset), total: count.total };
}

/** The excluded SKUs of a ruleset among `skus`: what the POS accrual needs for one receipt. */
export async function findExcludedSkus(
  db: Executor,
  rulesetId: string,
  skus: string[],
): Promise<Set<string>> {
  if (skus.length === 0) return new Set();
  const rows = await db
    .selectFrom('excluded_skus')
    .select('sku')
    .where('ruleset_id', '=', rulesetId)
    .where('sku', 'in', skus)
    .execute();
  return new Set(rows.map((r) => r.sku));
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
