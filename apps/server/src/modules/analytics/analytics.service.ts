import {
  type AnalyticsRangeQuery,
  analyticsWindow,
  type CardsAnalytics,
  type CountPoint,
  type OperationsAnalytics,
  type PointsSummary,
  type RetentionAnalytics,
} from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { amountNumber, centsNumber, parseCents } from '../../lib/money';
import { toIso } from '../../lib/paging';
import { totalLapsedHeld } from '../ledger/expired-holds.repository';
import { lotsOutstanding } from '../reports/outstanding.repository';
import { type AnalyticsSource, type CountRow, rollupSource } from './analytics.repository';

/**
 * Dashboard analytics. Every function takes the source of its numbers: the rollups in production, the
 * raw-table reference in tests and the benchmark, so both are shaped (and zero-filled) by the same code.
 */
function zeroFilled<R extends CountRow>(buckets: Date[], rows: R[], pick: (row: R | undefined) => number) {
  const byTime = new Map(rows.map((row) => [new Date(row.bucket).getTime(), row]));
  return buckets.map((bucket) => ({
    timestamp: bucket.toISOString(),
    value: pick(byTime.get(bucket.getTime())),
  }));
}

function counts(buckets: Date[], rows: CountRow[]): CountPoint[] {
  return zeroFilled(buckets, rows, (row) => row?.count ?? 0).map(({ timestamp, value }) => ({
    timestamp,
    count: value,
  }));
}

export async function operationsAnalytics(
  db: Db,
  query: AnalyticsRangeQuery,
  source: AnalyticsSource = rollupSource,
): Promise<OperationsAnalytics> {
  const window = analyticsWindow(query);
  const rows = await source.operations(db, window);
  return {
    operationsCount: counts(window.buckets, rows),
    operationsVolume: zeroFilled(window.buckets, rows, (row) => amountNumber(row?.amount)).map(
      ({ timestamp, value }) => ({ timestamp, amount: value }),
    ),
  };
}

export async function cardsAnalytics(
  db: Db,
  query: AnalyticsRangeQuery,
  source: AnalyticsSource = rollupSource,
): Promise<CardsAnalytics> {
  const window = analyticsWindow(query);
  return { issuedCards: counts(window.buckets, await source.issuedCards(db, window)) };
}

export async function retentionAnalytics(
  db: Db,
  query: AnalyticsRangeQuery,
  source: AnalyticsSource = rollupSource,
): Promise<RetentionAnalytics> {
  const window = analyticsWindow(query);
  return { activeUsers: counts(window.buckets, await source.activeAccounts(db, window)) };
}

export async function pointsSummary(db: Db, source: AnalyticsSource = rollupSource): Promise<PointsSummary> {
  const totals = await source.pointsTotals(db);
  // Lapsed holds not swept yet are not held any more (issue 15.5). Read after the totals, so a hold swept
  // in between counts as held once more in this answer, and is never subtracted twice.
  const lapsed = await totalLapsedHeld(db);
  // Subtract in cents so active is exact, not a float difference.
  const totalCents = parseCents(totals.total);
  const heldCents = parseCents(totals.held) - parseCents(lapsed);
  return {
    totalPoints: centsNumber(totalCents),
    activePoints: centsNumber(totalCents - heldCents),
    heldPoints: centsNumber(heldCents),
    expiring30Days: centsNumber(parseCents((await lotsOutstanding(db)).expiring30Days)),
    calculatedAt: toIso(totals.calculatedAt) as string,
  };
}
