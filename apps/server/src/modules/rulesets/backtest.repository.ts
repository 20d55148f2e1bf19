import { sql } from 'kysely';
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

/** One stored receipt with its lines, in (time, id) order. */
export interface BacktestReceipt {
  accrual_id: string;
  /** created_at in microseconds since the epoch: the keyset's key without a Date's loss of microseconds. */
  at_us: number;
  /** When it was bought (an offline till's purchasedAt, else created_at), in microseconds: the rules' time. */
  bought_us: number;
  pos_id: string;
  card_number: string;
  /**
   * The lines in line order as JSON text, [[sku, category, quantity, price, discount, bonus_points], …], the
   * numbers as exact decimal text: one field to parse per receipt (JSON.parse is native) instead of six per
   * line through the driver, which dominated the walk.
   */
  lines: string;
}

export interface BacktestCursor {
  atUs: number;
  accrualId: string;
}

/**
 * The next `receipts` receipts of [from, to) after `after`, ordered by time and id (receipts_created_at_idx,
 * migration 019), each with its lines. Keyset batches, not a cursor: flat memory, and no connection held for
 * the whole walk (PGlite has one).
 */
export async function readBacktestBatch(
  db: Executor,
  range: { from: string; to: string },
  after: BacktestCursor | null,
  receipts: number,
): Promise<BacktestReceipt[]> {
  const afterSql = after
    ? sql`and (r.created_at, r.accrual_id) >
        (timestamptz 'epoch' + ${after.atUs}::bigint * interval '1 microsecond', ${after.accrualId}::uuid)`
    : sql``;
  const result = await sql<BacktestReceipt>`
    select r.accrual_id, (extract(epoch from r.created_at) * 1000000)::bigint as at_us,
      (extract(epoch from coalesce(r.purchased_at, r.created_at)) * 1000000)::bigint as bought_us, r.pos_id,
      r.card_number,
      (select json_agg(json_build_array(i.sku, i.category, i.quantity::text, i.price::text, i.discount::text,
          i.bonus_points::text) order by i.line_no)
        from receipt_items i where i.accrual_id = r.accrual_id)::text as lines
    from receipts r
    where r.created_at >= ${range.from}::timestamptz and r.created_at < ${range.to}::timestamptz ${afterSql}
    order by r.created_at, r.accrual_id
    limit ${receipts}`.execute(db);
  return result.rows;
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
