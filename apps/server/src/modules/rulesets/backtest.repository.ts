import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { StoredEarningRules } from '../ledger/earning-rules';

export interface BacktestRuleset {
  version: number;
  percent: string;
  earning_rules: StoredEarningRules;
  /** Every SKU the ruleset excludes. */
  excluded: string[];
  time_zone: string | null;
}

/** The candidate ruleset as the accrual would read it, with all its exclusions, and the programme's zone. */
export async function readBacktestRuleset(db: Executor, id: string): Promise<BacktestRuleset | undefined> {
  const result = await sql<BacktestRuleset>`
    select r.version, r.percent, r.earning_rules,
      array(select e.sku from excluded_skus e where e.ruleset_id = r.id) as excluded,
      (select s.text_value from settings s where s.key = 'programme.timezone') as time_zone
    from rulesets r where r.id = ${id}::uuid`.execute(db);
  return result.rows[0];
}

/**
 * The next receipts of [from, to) in (time, id) order after a key (receipts_created_at_idx, migration 019),
 * with their lines, as one text: per receipt, tab-separated,
 *   accrual_id, at_us, bought_us, pos_id, card_number, line count, then per line
 *   sku, category (empty for none), quantity, price, discount, bonus_points
 * — times in microseconds since the epoch (created_at; an offline till's purchased_at, else created_at),
 * texts as JSON strings (so every tab is a separator), numbers as the columns' exact decimal text. One field
 * for the whole batch: the driver's cost per row and per field dominated the walk when it read a row per
 * line, and was still most of it with a row per receipt. ARRAY(…) keeps the order the index gives.
 */
export interface BacktestBatch {
  /** How many receipts the batch holds, with or without lines; fewer than asked: the last batch. */
  scanned: number;
  /** The batch's last receipt: where the next batch starts. */
  last: BacktestCursor | null;
  body: string | null;
}

export interface BacktestCursor {
  /** created_at in microseconds since the epoch: the keyset's key without a Date's loss of microseconds. */
  atUs: string;
  accrualId: string;
}

/**
 * The backtest's range, and optionally one time window of it [fromUs, toUs) in microseconds since the epoch:
 * windows known in advance let two reads run at once (a keyset batch must wait for the one before it).
 */
export interface BacktestSlice {
  from: string;
  to: string;
  fromUs?: number;
  toUs?: number;
}

const at = (us: number | string) =>
  sql`timestamptz 'epoch' + ${String(us)}::bigint * interval '1 microsecond'`;

/**
 * A text as a JSON string: to_json only when it holds a quote or a backslash, the only characters the
 * reader's scan stops at (FieldReader.text, which slices a text without a backslash as it is, so any other
 * character may stay raw); plain quotes around the rest. to_json on every SKU, category and card number was
 * ≈ 13 % of a batch's PostgreSQL CPU (245 → 212 ms per 20,000 receipts), and almost no text needs it.
 */
const jsonText = (column: ReturnType<typeof sql.ref>) =>
  sql`case when strpos(${column}, '"') > 0 or strpos(${column}, '\\') > 0 then to_json(${column})::text
    else '"' || ${column} || '"' end`;

/**
 * The next `receipts` receipts of a slice after `after` (see BacktestBatch). Keyset batches, not a cursor:
 * flat memory, and no connection held for the whole walk (PGlite has one).
 */
export async function readBacktestBatch(
  db: Db,
  slice: BacktestSlice,
  after: BacktestCursor | null,
  receipts: number,
): Promise<BacktestBatch> {
  const afterSql = after
    ? sql`and (r.created_at, r.accrual_id) > (${at(after.atUs)}, ${after.accrualId}::uuid)`
    : sql``;
  const windowSql =
    slice.fromUs !== undefined && slice.toUs !== undefined
      ? sql`and r.created_at >= ${at(slice.fromUs)} and r.created_at < ${at(slice.toUs)}`
      : sql``;
  // JIT off: the planner sees a costly query and would compile its expressions for every batch, which took
  // longer than the batch. OFFSET 0 keeps each ARRAY(…) a subquery of its own, computed once: pulled up, it
  // was computed again for every place that reads it.
  const result = await db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return sql<{ scanned: number; last: string | null; body: string | null }>`
      select cardinality(b.records) as scanned, b.records[cardinality(b.records)] as last,
        nullif(array_to_string(b.records, E'\\t'), '') as body
      from (select array(
        select concat_ws(E'\\t', r.accrual_id, (extract(epoch from r.created_at) * 1000000)::bigint,
          (extract(epoch from coalesce(r.purchased_at, r.created_at)) * 1000000)::bigint, r.pos_id,
          ${jsonText(sql.ref('r.card_number'))}, cardinality(l.lines), nullif(array_to_string(l.lines, E'\\t'), ''))
        from receipts r
        cross join lateral (
          select array(
            select concat_ws(E'\\t', ${jsonText(sql.ref('i.sku'))},
              coalesce(${jsonText(sql.ref('i.category'))}, ''), i.quantity, i.price, i.discount, i.bonus_points)
            from receipt_items i where i.accrual_id = r.accrual_id order by i.line_no) as lines
          offset 0
        ) l
        where r.created_at >= ${slice.from}::timestamptz and r.created_at < ${slice.to}::timestamptz
          ${windowSql} ${afterSql}
        order by r.created_at, r.accrual_id
        limit ${receipts}
      ) as records offset 0) b`.execute(trx);
  });
  const row = result.rows[0]!;
  // The last record starts with its key: accrual_id, at_us.
  const key = row.last?.split('\t', 2);
  return {
    scanned: Number(row.scanned),
    last: key ? { accrualId: key[0]!, atUs: key[1]! } : null,
    body: row.body,
  };
}

/** How many accounts the receipts of [from, to) belong to (their accruals' accounts). */
export async function countBacktestAccounts(
  db: Executor,
  range: { from: string; to: string },
): Promise<number> {
  const result = await sql<{ accounts: number }>`
    select count(distinct o.account_id)::int as accounts
    from receipts r join operations o on o.id = r.accrual_id
    where r.created_at >= ${range.from}::timestamptz and r.created_at < ${range.to}::timestamptz`.execute(db);
  return result.rows[0]?.accounts ?? 0;
}
