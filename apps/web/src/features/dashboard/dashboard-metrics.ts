import type { AmountPoint, CountPoint, OperationsAnalytics, PointsSummary } from '@loyalty/contracts';
import { formatNumber, toNumber } from '@/lib/format';
import { sumAmounts } from '@/lib/money';
import { startOfUtcDay } from './analytics-windows';

/** Amounts may arrive as numeric strings (ADMIN-API.md "Shapes"). */
type Amount = Omit<AmountPoint, 'amount'> & { amount: number | string };

export function totalCount(points: readonly CountPoint[]): number {
  return points.reduce((sum, point) => sum + point.count, 0);
}

/** Summed in cents (`sumAmounts`), so 0.1 + 0.2 shows as 0.3. */
export function totalAmount(points: readonly Amount[]): number {
  return sumAmounts(points.map((point) => point.amount));
}

/** The largest bucket: 'peak daily active users' (spec section 2) from a daily series. */
export function peakCount(points: readonly CountPoint[]): number {
  return points.reduce((max, point) => Math.max(max, point.count), 0);
}

export interface OperationTotals {
  count: number;
  volume: number;
}

export function operationTotals(series: OperationsAnalytics): OperationTotals {
  return { count: totalCount(series.operationsCount), volume: totalAmount(series.operationsVolume) };
}

/** The buckets that start at or after `since` (ms), e.g. today's hours. */
export function operationTotalsSince(series: OperationsAnalytics, since: number): OperationTotals {
  const inRange = (point: { timestamp: string }) => Date.parse(point.timestamp) >= since;
  return operationTotals({
    operationsCount: series.operationsCount.filter(inRange),
    operationsVolume: series.operationsVolume.filter(inRange),
  });
}

/** Today = since 00:00 UTC of the day the series ends in (its window's last instant). */
export function operationTotalsToday(
  series: OperationsAnalytics & { range: { to: string } },
): OperationTotals {
  return operationTotalsSince(series, startOfUtcDay(Date.parse(series.range.to) - 1));
}

/** Active over total as a percentage; 0 when nothing is in circulation. */
export function utilizationPercent(summary: PointsSummary): number {
  const total = toNumber(summary.totalPoints);
  if (total <= 0) return 0;
  return (toNumber(summary.activePoints) / total) * 100;
}

const percentFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** One decimal, always: 0.0%, 87.5%, 100.0%. */
export function formatPercent(value: number): string {
  return `${percentFormat.format(value)}%`;
}

export interface ChartPoint {
  timestamp: string;
  count: number;
  /** Whole points (spec: chart volume is rounded to whole numbers). */
  volume: number;
}

/** One row per bucket for the chart; the two series share their timestamps (both zero-filled). */
export function chartPoints(series: OperationsAnalytics): ChartPoint[] {
  const volumes = new Map(series.operationsVolume.map((p) => [p.timestamp, toNumber(p.amount)]));
  return series.operationsCount.map((point) => ({
    timestamp: point.timestamp,
    count: point.count,
    volume: Math.round(volumes.get(point.timestamp) ?? 0),
  }));
}

/** '1 operation', '1,024 operations'. */
export function plural(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`;
}

/** The chart card's subtitle, 'N operations, M bonus points' (spec section 2), in en-US numbers. */
export function chartSubtitle(count: number, volume: number): string {
  return `${plural(count, 'operation', 'operations')}, ${plural(volume, 'bonus point', 'bonus points')}`;
}
