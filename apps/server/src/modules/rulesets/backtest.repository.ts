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
 * Where the programme day (in `timeZone`) that `at` falls on begins, as the accrual's day cap reads it
 * (`readEarnedToday`: date_trunc in the zone), and `at` in microseconds since the epoch.
 */
export async function programmeDayStart(
  db: Executor,
  at: string,
  timeZone: string,
): Promise<{ dayStart: string; atUs: string }> {
  const result = await sql<{ dayStart: string; atUs: string }>`
    select to_char(date_trunc('day', ${at}::timestamptz, ${timeZone}) at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "dayStart",
      (extract(epoch from ${at}::timestamptz) * 1000000)::bigint::text as "atUs"`.execute(db);
  return result.rows[0]!;
}

/** A receipt as the backtest reads it (readBacktestBatch). */
export interface BacktestReceipt {
  accrual_id: string;
  /** created_at in microseconds since the epoch: the keyset's key without a Date's loss of microseconds. */
  at_us: string;
  /** An offline till's purchased_at in microseconds since the epoch; null: bought when booked. */
  bought_us: string | null;
  pos_id: string;
  card_number: string;
  /**
   * The lines as one text (`receipt_line_text` joined by tabs, migration 028): per line sku, category (empty
   * for none), quantity, price, discount, bonus_points; texts as JSON strings. Null: no lines.
   */
  lines: string | null;
}

/**
 * The next receipts of [from, to) in (time, id) order after a key (receipts_created_at_idx, migration 019),
 * a row each with its lines as one text. A row per receipt costs PostgreSQL ≈ 30 ms per 20,000 receipts
 * here; looking the lines up and joining everything into one text per batch (before 028) cost ≈ 520 ms.
 */
export interface BacktestBatch {
  /** With or without lines; fewer than asked: the last batch. */
  receipts: BacktestReceipt[];
  /** The batch's last receipt: where the next batch starts. */
  last: BacktestCursor | null;
}

export interface BacktestCursor {
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
 * A receipt's lines text made from its stored lines: what `lines_text` holds, for a receipt written before
 * migration 028. Inline, not a SQL function: a function doing a query runs its executor per call, which took
 * ≈ 100 µs per receipt; as a subquery inside COALESCE it runs only for a receipt without the text.
 */
export const storedLinesText = (accrualId: ReturnType<typeof sql.ref>) =>
  sql`nullif(array_to_string(array(
    select receipt_line_text(i.sku, i.category, i.quantity, i.price, i.discount, i.bonus_points)
    from receipt_items i where i.accrual_id = ${accrualId} order by i.line_no), E'\\t'), '')`;

/**
 * Gives the receipts written before migration 028 their lines text (the backtest's fast path), in batches
 * by key so no batch holds many row locks for long and a receipt without lines (it stays null) is passed
 * only once. Returns how many receipts got one. `npm run rebuild-derived` runs it.
 */
export async function fillMissingLinesTexts(db: Db, batch = 10_000): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let filled = 0;
  for (;;) {
    const result = await db.transaction().execute(async (trx) => {
      await sql`set local jit = off`.execute(trx);
      return sql<{ last: string | null; filled: number }>`
        with k as (
          select accrual_id from receipts where accrual_id > ${after}::uuid and lines_text is null
          order by accrual_id limit ${batch}
        ),
        u as (
          update receipts r set lines_text = ${storedLinesText(sql.ref('r.accrual_id'))}
          from k where r.accrual_id = k.accrual_id and r.lines_text is null
          returning 1
        )
        select (select accrual_id::text from k order by accrual_id desc limit 1) as last,
          (select count(*)::int from u) as filled`.execute(trx);
    });
    const row = result.rows[0]!;
    filled += row.filled;
    if (row.last === null) return filled;
    after = row.last;
  }
}

const microseconds = (column: ReturnType<typeof sql.ref>) =>
  sql`(extract(epoch from ${column}) * 1000000)::bigint::text`;

/**
 * The next `receipts` receipts of a slice after `after` (see BacktestBatch). Keyset batches, not a cursor:
 * flat memory, and no connection held for the whole walk (PGlite has one). A receipt written before
 * migration 028 has no `lines_text`: its lines are read with `storedLinesText`, the same text.
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
  // JIT off: the lookup of the lines of receipts without their text makes the planner see a costly query, and
  // it would compile its expressions for every batch (≈ 320 ms, longer than the batch).
  const result = await db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return sql<BacktestReceipt>`
    select r.accrual_id, ${microseconds(sql.ref('r.created_at'))} as at_us,
      ${microseconds(sql.ref('r.purchased_at'))} as bought_us, r.pos_id, r.card_number,
      coalesce(r.lines_text, ${storedLinesText(sql.ref('r.accrual_id'))}) as lines
    from receipts r
    where r.created_at >= ${slice.from}::timestamptz and r.created_at < ${slice.to}::timestamptz
      ${windowSql} ${afterSql}
    order by r.created_at, r.accrual_id
    limit ${receipts}`.execute(trx);
  });
  const rows = result.rows;
  const last = rows[rows.length - 1];
  return { receipts: rows, last: last ? { accrualId: last.accrual_id, atUs: last.at_us } : null };
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
