import type { AnalyticsGroupBy } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/executor';

export interface BucketRange {
  groupBy: AnalyticsGroupBy;
  /** Inclusive, aligned to groupBy. */
  start: Date;
  /** Exclusive, aligned to groupBy. */
  end: Date;
}

export interface CountRow {
  bucket: Date;
  count: number;
}

export interface VolumeRow extends CountRow {
  /** numeric as a string: Σ |points|. */
  amount: string;
}

export interface PointsTotalsRow {
  total: string;
  held: string;
  calculatedAt: Date;
}

/**
 * Where the analytics numbers come from. `rollupSource` (here) answers from the rollup tables;
 * `referenceSource` (analytics-reference.repository.ts) answers the same questions from the raw tables,
 * for the tests and the benchmark. Rows are only the non-empty buckets; the service zero-fills.
 */
export interface AnalyticsSource {
  operations(db: Executor, range: BucketRange): Promise<VolumeRow[]>;
  issuedCards(db: Executor, range: BucketRange): Promise<CountRow[]>;
  activeAccounts(db: Executor, range: BucketRange): Promise<CountRow[]>;
  pointsTotals(db: Executor): Promise<PointsTotalsRow>;
}

// date_bin on the UTC epoch: the same UTC hours and days as date_trunc(…, 'UTC'), without a time-zone
// lookup per row.
const UTC_EPOCH = sql`timestamptz '2000-01-01 00:00:00+00'`;

/**
 * Sums one analytics_hourly count (and its other columns) per hour or per day of [start, end), leaving out
 * buckets whose count is 0, as the raw tables would: an hour row can exist for another column alone (a
 * day's distinct accounts are credited to its first hour, so by hour that row counts nothing).
 */
async function sumHourly<R>(
  db: Executor,
  { groupBy, start, end }: BucketRange,
  count: ReturnType<typeof sql>,
  others: ReturnType<typeof sql> = sql``,
) {
  const { rows } = await sql<R>`
    select date_bin(${`1 ${groupBy}`}::interval, bucket, ${UTC_EPOCH}) as bucket, ${count}::int8 as count ${others}
    from analytics_hourly
    where bucket >= ${start} and bucket < ${end}
    group by 1
    having ${count} <> 0`.execute(db);
  return rows;
}

export const rollupSource: AnalyticsSource = {
  operations: (db, range) =>
    sumHourly<VolumeRow>(db, range, sql`sum(operations)`, sql`, sum(volume) as amount`),

  issuedCards: (db, range) => sumHourly<CountRow>(db, range, sql`sum(issued_cards)`),

  // Distinct accounts do not add up across hours: a day sums its hours' `day_accounts` instead.
  activeAccounts: (db, range) =>
    sumHourly<CountRow>(
      db,
      range,
      range.groupBy === 'hour' ? sql`sum(active_accounts)` : sql`sum(day_accounts)`,
    ),

  async pointsTotals(db) {
    const { rows } = await sql<PointsTotalsRow>`
      select coalesce(sum(balance), 0) as total, coalesce(sum(held_balance), 0) as held,
             now() as "calculatedAt"
      from analytics_points_totals`.execute(db);
    return rows[0]!;
  },
};
