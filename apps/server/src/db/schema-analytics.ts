import type { ColumnType } from 'kysely';
import type { Timestamp } from './schema';

type Count = ColumnType<number, number | bigint | undefined, number | bigint>;
type Decimal = ColumnType<string, string | number | undefined, string | number>;

/**
 * A counter row of one bucket written by one backend shard (pg_backend_pid() % 64); only the sum over
 * the shards of a bucket has a meaning (a shard may be negative).
 */
interface ShardedBucket {
  bucket: Timestamp;
  shard: number;
}

export interface AnalyticsHourlyTable extends ShardedBucket {
  /** Completed operations. */
  operations: Count;
  /** Σ |points| of completed operations. */
  volume: Decimal;
  /** Distinct accounts with a completed operation in the hour. */
  active_accounts: Count;
  /** This hour's share of its day's distinct active accounts (sum a day's hours to get the day's). */
  day_accounts: Count;
  /** Cards whose coalesce(issued_at, created_at) falls in the hour. */
  issued_cards: Count;
}

/** One row per account active on a UTC day (exists only while operations > 0). */
export interface AnalyticsAccountDaysTable {
  bucket: Timestamp;
  account_id: string;
  /** Completed operations of the account that day. */
  operations: number;
  /** The same per UTC hour, index 1 = 00:00–00:59. */
  hour_operations: number[];
}

export interface AnalyticsPointsTotalsTable {
  shard: number;
  balance: Decimal;
  held_balance: Decimal;
}

/** Rollup tables of the analytics issue (migration 004), kept exact by triggers. */
export interface AnalyticsTables {
  analytics_hourly: AnalyticsHourlyTable;
  analytics_account_days: AnalyticsAccountDaysTable;
  analytics_points_totals: AnalyticsPointsTotalsTable;
}
