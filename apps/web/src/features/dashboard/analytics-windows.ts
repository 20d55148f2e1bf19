import type { AnalyticsGroupBy } from '@loyalty/contracts';
import { serverNow } from '@/lib/server-clock';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The chart's range choices (spec section 9: 24 hours, 7 days, 30 days = 720 hours). */
export type ChartRange = '24h' | '7d' | '30d';

export interface ChartRangeOption {
  label: string;
  groupBy: AnalyticsGroupBy;
  /** How many whole buckets the range shows. */
  buckets: number;
}

export const CHART_RANGES: Record<ChartRange, ChartRangeOption> = {
  '24h': { label: 'Last 24 hours', groupBy: 'hour', buckets: 24 },
  '7d': { label: 'Last 7 days', groupBy: 'day', buckets: 7 },
  '30d': { label: 'Last month', groupBy: 'day', buckets: 30 },
};

export const CHART_RANGE_IDS = Object.keys(CHART_RANGES) as ChartRange[];

/** Spec section 9 "Metric windows": operations 1 day; cards and active users 7 days. */
export const METRIC_WINDOWS = {
  operations: '24h',
  cards: '7d',
  activeUsers: '7d',
} as const satisfies Record<string, ChartRange>;

export interface AnalyticsRange {
  from: string;
  to: string;
  groupBy: AnalyticsGroupBy;
}

function bucketSize(groupBy: AnalyticsGroupBy): number {
  return groupBy === 'hour' ? HOUR_MS : DAY_MS;
}

/**
 * The last `buckets` whole UTC buckets, the current one included. Both ends are bucket edges, so the
 * server answers exactly `buckets` points and a total is exactly the sum of the bars on screen (a window
 * starting mid-bucket would count that whole first bucket: see `analyticsWindow` in the contracts). `now` is
 * the server's (lib/server-clock.ts): a browser clock hours off asked for a window the data were not in.
 */
export function trailingRange(range: ChartRange, now = serverNow()): AnalyticsRange {
  const { groupBy, buckets } = CHART_RANGES[range];
  const size = bucketSize(groupBy);
  const end = Math.floor(now / size) * size + size;
  return {
    from: new Date(end - buckets * size).toISOString(),
    to: new Date(end).toISOString(),
    groupBy,
  };
}

/** 00:00 UTC of the day that holds `instant`. */
export function startOfUtcDay(instant: number): number {
  return Math.floor(instant / DAY_MS) * DAY_MS;
}
