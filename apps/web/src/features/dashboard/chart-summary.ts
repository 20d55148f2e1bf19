import type { AnalyticsGroupBy } from '@loyalty/contracts';
import { formatBucket } from './chart-format';
import { type ChartPoint, chartSubtitle, type OperationTotals, plural } from './dashboard-metrics';

/**
 * What the chart shows, in words: its accessible description, so a screen-reader user who tabs onto
 * the chart hears the totals and the busiest bucket instead of "application" (or nothing).
 */
export function chartSummary(
  points: readonly ChartPoint[],
  groupBy: AnalyticsGroupBy,
  // The series' exact totals, as the card's subtitle shows them: a sum of the points' rounded volumes said
  // "0 bonus points" for seven days of 0.4 while the subtitle said 2.8.
  { count, volume }: OperationTotals,
): string {
  const unit = groupBy === 'hour' ? 'hour' : 'day';
  const totals = `${chartSubtitle(count, volume)} over ${plural(points.length, unit, `${unit}s`)} (UTC).`;
  const busiest = points.reduce<ChartPoint | undefined>(
    (best, point) => (best === undefined || point.count > best.count ? point : best),
    undefined,
  );
  if (!busiest || busiest.count === 0) return `${totals} Arrow keys step through the ${unit}s.`;
  const when = formatBucket(busiest.timestamp, groupBy);
  return `${totals} Busiest ${unit}: ${when}, ${plural(busiest.count, 'operation', 'operations')}. Arrow keys step through the ${unit}s.`;
}
