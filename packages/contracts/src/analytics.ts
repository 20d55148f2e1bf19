import { z } from 'zod';
import { businessTimestamp, isoTimestamp } from './common';

/**
 * Dashboard analytics (ADMIN-API.md "Analytics").
 *
 * Bucketing rule: buckets are whole UTC hours or UTC days. A series has one point for every bucket that
 * overlaps the half-open interval [from, to): the first point is floor(from), the last is the bucket that
 * holds the last instant before `to` (so an aligned `to` is not included; `to` = 10:30 includes 10:00).
 * Each point counts its whole bucket, zero-filled, ordered by time.
 */
export const analyticsGroupBy = z.enum(['hour', 'day']);
export type AnalyticsGroupBy = z.infer<typeof analyticsGroupBy>;

/** Longest range accepted. */
export const ANALYTICS_MAX_RANGE_DAYS = 400;
/** Longest range accepted with groupBy=hour (744 points). */
export const ANALYTICS_MAX_HOURLY_RANGE_DAYS = 31;
/** Without groupBy: hourly up to this range, daily beyond it. */
export const ANALYTICS_HOURLY_DEFAULT_MAX_HOURS = 48;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

// zod's pattern already rejects impossible dates (2025-02-30), so Date.parse never sees one.
const instant = businessTimestamp();

export const analyticsRangeQuery = z
  .object({
    from: instant,
    to: instant.meta({
      description: `must be after from, the range at most ${ANALYTICS_MAX_RANGE_DAYS} days; same format and range as from`,
    }),
    groupBy: analyticsGroupBy
      .optional()
      .describe(
        `hour or day; default hour when the range is at most ${ANALYTICS_HOURLY_DEFAULT_MAX_HOURS} h. hour ` +
          `allows a range of at most ${ANALYTICS_MAX_HOURLY_RANGE_DAYS} days`,
      ),
  })
  .superRefine((query, ctx) => {
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (Number.isNaN(from) || Number.isNaN(to)) return;
    if (to <= from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    } else if (to - from > ANALYTICS_MAX_RANGE_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `the range may be at most ${ANALYTICS_MAX_RANGE_DAYS} days`,
      });
    } else if (query.groupBy === 'hour' && to - from > ANALYTICS_MAX_HOURLY_RANGE_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['groupBy'],
        message: `hourly grouping allows a range of at most ${ANALYTICS_MAX_HOURLY_RANGE_DAYS} days`,
      });
    }
  });
export type AnalyticsRangeQuery = z.infer<typeof analyticsRangeQuery>;

export const countPoint = z.object({ timestamp: isoTimestamp, count: z.number().int() });
export const amountPoint = z.object({ timestamp: isoTimestamp, amount: z.number() });
export type CountPoint = z.infer<typeof countPoint>;
export type AmountPoint = z.infer<typeof amountPoint>;

export const operationsAnalytics = z.object({
  operationsCount: z.array(countPoint).describe('completed operations per bucket'),
  operationsVolume: z.array(amountPoint).describe('sum of |points| of completed operations per bucket'),
});
export type OperationsAnalytics = z.infer<typeof operationsAnalytics>;

export const cardsAnalytics = z.object({
  issuedCards: z.array(countPoint).describe('cards issued per bucket (issuedAt, else createdAt)'),
});
export type CardsAnalytics = z.infer<typeof cardsAnalytics>;

export const retentionAnalytics = z.object({
  activeUsers: z.array(countPoint).describe('distinct accounts with a completed operation in the bucket'),
});
export type RetentionAnalytics = z.infer<typeof retentionAnalytics>;

export const pointsSummary = z.object({
  totalPoints: z.number().describe('sum of every account balance'),
  activePoints: z.number().describe('totalPoints - heldPoints'),
  heldPoints: z.number().describe('sum of every held balance'),
  expiring30Days: z
    .number()
    .describe('points left in lots expiring within 30 days (overdue ones not swept yet included); issue 9'),
  calculatedAt: isoTimestamp,
});
export type PointsSummary = z.infer<typeof pointsSummary>;

export interface AnalyticsWindow {
  groupBy: AnalyticsGroupBy;
  /** First bucket start (inclusive). */
  start: Date;
  /** End of the last bucket (exclusive). */
  end: Date;
  /** Every bucket start, in order. */
  buckets: Date[];
}

/** The buckets a query covers (see the rule above); shared by the server and the console. */
export function analyticsWindow(query: {
  from: string;
  to: string;
  groupBy?: AnalyticsGroupBy;
}): AnalyticsWindow {
  const from = Date.parse(query.from);
  const to = Date.parse(query.to);
  const groupBy =
    query.groupBy ?? (to - from <= ANALYTICS_HOURLY_DEFAULT_MAX_HOURS * HOUR_MS ? 'hour' : 'day');
  const size = groupBy === 'hour' ? HOUR_MS : DAY_MS;
  // Unix time has no leap seconds, so UTC hours and days are exact multiples of the epoch.
  const start = Math.floor(from / size) * size;
  const end = Math.ceil(to / size) * size;
  const buckets: Date[] = [];
  for (let t = start; t < end; t += size) buckets.push(new Date(t));
  return { groupBy, start: new Date(start), end: new Date(end), buckets };
}
