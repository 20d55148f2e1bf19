import type { Operation, OperationMeta, OperationStatus, OperationType } from '@loyalty/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import { anyUuid } from '../../db/any-of';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import { listSource } from '../../lib/list-stream';
import { toIso } from '../../lib/paging';
import { availableSql } from '../ledger/balances.sql';
import { countShortSearch, SEARCH_COUNTER_MAX, searchCondition } from './operation-search.sql';

const META_KEYS = [
  'store',
  'transactionId',
  'receipt',
  'reward',
  'reason',
  'error',
  'lots',
  'operationId',
  'holdId',
  'returnOf',
  'shortfall',
  // An imported credit's origin: told apart from a manual one, and traced to its import's file line.
  'source',
  'importId',
  'line',
] as const;

/**
 * Only the Details keys leave the server; a structured value is shown as its JSON text. `holdId`: the hold a
 * redemption captured (its `related_id`), for the rows written before the capture put it in their meta too.
 */
function pickMeta(meta: unknown, holdId?: string | null): OperationMeta {
  const out: OperationMeta = holdId ? { holdId } : {};
  if (!meta || typeof meta !== 'object') return out;
  for (const key of META_KEYS) {
    const value = (meta as Record<string, unknown>)[key];
    if (value === null || value === undefined) continue;
    out[key] =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : JSON.stringify(value);
  }
  return out;
}

/** The operation's own columns of the wire shape; its POS's name and address come with each query's join. */
const operationColumns = [
  'o.id',
  'o.operation_id',
  'o.type',
  'o.points',
  'o.status',
  'o.account_id',
  'o.card_number',
  'o.pos_id',
  'o.created_at',
  'o.meta',
  'o.related_id',
] as const;

function operationQuery(db: Executor) {
  return db
    .selectFrom('operations as o')
    .leftJoin('pos_keys as p', 'p.id', 'o.pos_id')
    .select([...operationColumns, 'p.name as pos_name', 'p.address as pos_address']);
}

type OperationQueryRow = Awaited<ReturnType<ReturnType<typeof operationQuery>['executeTakeFirstOrThrow']>>;

/**
 * An operation's row as read for the wire; a ledger write builds the one it is writing, for its event (with
 * its links in its meta, so without `related_id`).
 */
export type OperationRow = Omit<OperationQueryRow, 'related_id'> & { related_id?: string | null };

export function toOperation(row: OperationRow): Operation {
  return {
    id: row.id,
    operationId: row.operation_id,
    type: row.type,
    points: row.points,
    status: row.status,
    accountId: row.account_id,
    cardNumber: row.card_number,
    posId: row.pos_id,
    posName: row.pos_name,
    posAddress: row.pos_address,
    createdAt: toIso(row.created_at) as string,
    meta: pickMeta(row.meta, row.type === 'redemption' ? row.related_id : null),
  };
}

export async function findOperationById(db: Executor, id: string): Promise<Operation | undefined> {
  const row = await operationQuery(db).where('o.id', '=', id).executeTakeFirst();
  return row ? toOperation(row) : undefined;
}

/**
 * Operations as the admin API shows them (order not kept), each with its account's balance and what is
 * available (the lapsed holds not voided yet do not count as held): the data of their events, in one read.
 *
 * `creditsInOrder`: the operations are credits one statement wrote, in `ids` order (an import's batch).
 * The account's balances are read after all of them, so each is given them less the credits after it on
 * the same account (and its pending points less theirs still pending): what that credit left, as one-by-one
 * writes give. Without it, two credits of one account in one batch both said the balance after the batch.
 */
export async function findOperationsWithBalances(
  db: Executor,
  ids: readonly string[],
  options: { creditsInOrder?: boolean } = {},
) {
  if (ids.length === 0) return [];
  // One window over the batch, not a subquery per credit: a batch holds thousands of them.
  const after = options.creditsInOrder
    ? sql<{ id: string; points: string; pending: string }>`(
        select c.id,
          sum(c.points) over w - c.points as points,
          sum(c.pending_points) over w - c.pending_points as pending
        from (
          select c.id, c.account_id, c.points, i.n,
            case when exists (select 1 from lots l where l.credit_id = c.id and l.available_at > now())
              then c.points else 0 end as pending_points
          from unnest(${[...ids]}::uuid[]) with ordinality as i (id, n) join operations c on c.id = i.id
        ) c
        window w as (partition by c.account_id order by c.n desc rows between unbounded preceding and current row)
      )`
    : sql<{ id: string; points: string; pending: string }>`(
        select null::uuid as id, 0::numeric as points, 0::numeric as pending where false)`;
  const balance = sql`a.balance - coalesce(later.points, 0)`;
  const rows = await operationQuery(db)
    .leftJoin('accounts as a', 'a.id', 'o.account_id')
    .leftJoin(after.as('later'), (join) => join.onRef('later.id', '=', 'o.id'))
    .select([
      sql<string | null>`(${balance})::text`.as('account_balance'),
      sql<string | null>`${availableSql(
        sql.ref('a.id'),
        balance,
        sql.ref('a.held_balance'),
        sql`-coalesce(later.pending, 0)`,
      )}::text`.as('account_available'),
    ])
    .where('o.id', '=', anyUuid(ids))
    .execute();
  return rows.map((row) => ({
    operation: toOperation(row),
    balance: row.account_balance,
    available: row.account_available,
  }));
}

export interface OperationFilter {
  page: number;
  size: number;
  /** A card-number prefix, an operation-id prefix, or an operation's exact UUID. */
  search?: string;
  type?: OperationType;
  status?: OperationStatus;
  accountId?: string;
  cardNumber?: string;
  sort?: { field: 'createdAt'; direction: 'asc' | 'desc' };
  /** Client lookup: operations of these accounts only. */
  accountIds?: string[];
  /**
   * With `accountId`: also the failed POS writes that named one of these card numbers but were not bound to
   * the account (refused before it was read: a bad receipt), which carry only the card number. Only those at
   * or after the card's `issuedAt`: a till's attempt on a number before it was issued (CARD_NOT_FOUND) was
   * someone else's, not the member's who got the number later.
   */
  unboundOfCards?: { number: string; issuedAt: string }[];
}

function conditions(filter: OperationFilter): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (filter.type) where.push(sql<SqlBool>`type = ${filter.type}`);
  if (filter.status) where.push(sql<SqlBool>`status = ${filter.status}`);
  if (filter.accountId && filter.unboundOfCards?.length) {
    where.push(
      sql<SqlBool>`(account_id = ${filter.accountId} or (account_id is null and (${sql.join(
        filter.unboundOfCards.map(
          (card) => sql`(card_number = ${card.number} and created_at >= ${card.issuedAt}::timestamptz)`,
        ),
        sql` or `,
      )})))`,
    );
  } else if (filter.accountId) where.push(sql<SqlBool>`account_id = ${filter.accountId}`);
  if (filter.accountIds) where.push(sql<SqlBool>`account_id in (${sql.join(filter.accountIds)})`);
  if (filter.cardNumber) where.push(sql<SqlBool>`card_number = ${filter.cardNumber}`);
  if (filter.search) where.push(searchCondition(filter.search));
  return where;
}

export async function listOperations(
  db: Db,
  filter: OperationFilter,
): Promise<{ rows: Operation[]; total: number }> {
  if (filter.accountIds?.length === 0) return { rows: [], total: 0 };
  const where = conditions(filter);
  const dir = filter.sort?.direction ?? 'desc';
  // The page's ids come from an index in sort order (for a deep page the skipped entries are index
  // entries, not rows); the rows and their POS are loaded for those ids only.
  const pageIds = db
    .selectFrom('operations')
    .select('id')
    .where((eb) => eb.and(where))
    .orderBy('created_at', dir)
    .orderBy('id', dir)
    .limit(filter.size)
    .offset(filter.page * filter.size);
  const selective = filter.accountId || filter.accountIds || filter.cardNumber;
  const total = await (selective || (filter.search && filter.search.length > SEARCH_COUNTER_MAX)
    ? db
        .selectFrom('operations')
        .where((eb) => eb.and(where))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => r.n)
    : filter.search
      ? countShortSearch(db, filter.search, filter.type, filter.status)
      : countFromCounters(db, filter.type, filter.status));
  // With nothing to find, the page query would walk the whole sort index looking for it.
  const rows =
    total === 0
      ? []
      : await operationQuery(db)
          .where('o.id', 'in', pageIds)
          .orderBy('o.created_at', dir)
          .orderBy('o.id', dir)
          .execute();
  return { rows: rows.map(toOperation), total };
}

/**
 * The list's rows for its export: the same filter, order and mapping as the pages. The POS comes from a
 * lateral join whose only columns are the POS's name and address, so the filter's bare column names
 * (id, status, created_at…) still mean the operation's.
 */
export function operationsExportSource(db: Db, filter: OperationFilter) {
  const query = db
    .selectFrom('operations as o')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('pos_keys as p')
          .select(['p.name as pos_name', 'p.address as pos_address'])
          .whereRef('p.id', '=', 'o.pos_id')
          .as('p'),
      (join) => join.onTrue(),
    )
    .select([...operationColumns, 'p.pos_name', 'p.pos_address'])
    .where((eb) => (filter.accountIds?.length === 0 ? eb.val(false) : eb.and(conditions(filter))));
  const direction = filter.sort?.direction ?? 'desc';
  return listSource(
    query,
    { column: 'o.created_at', direction, nulls: 'database', tiebreak: { column: 'o.id', direction } },
    (rows) => rows.map(toOperation),
  );
}

/** Exact, from the counter rows the operations triggers keep (db/DERIVED.md). */
async function countFromCounters(db: Db, type?: OperationType, status?: OperationStatus): Promise<number> {
  let query = db.selectFrom('operation_counts').select(sql<number>`coalesce(sum(n), 0)::bigint`.as('n'));
  if (type) query = query.where('type', '=', type);
  if (status) query = query.where('status', '=', status);
  return (await query.executeTakeFirstOrThrow()).n;
}
