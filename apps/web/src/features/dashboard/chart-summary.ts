import type { AnalyticsGroupBy } from '@loyalty/contracts';
import { formatBucket } from './chart-format';
import { type ChartPoint, chartSubtitle, plural } from './dashboard-metrics';

/**
 * What the chart shows, in words: its accessible description, so a screen-reader user who tabs onto
 * the chart hears the totals and the busiest bucket instead of "application" (or nothing).
 */
export function chartSummary(points: readonly ChartPoint[], groupBy: AnalyticsGroupBy): string {
  const unit = groupBy === 'hour' ? 'hour' : 'day';
  const count = points.reduce((sum, point) => sum + point.count, 0);
  const volume = points.reduce((sum, point) => sum + point.volume, 0);
  const totals = `${chartSubtitle(count, volume)} over ${plural(points.length, unit, `${unit}s`)} (UTC).`;
  const busiest = points.reduce<ChartPoint | undefined>(
    (best, point) => (best === undefined || point.count > best.count ? point : best),
    undefined,
  );
  if (!busiest || busiest.count === 0) return `${totals} Arrow keys step through the ${unit}s.`;
  const when = formatBucket(busiest.timestamp, groupBy);
  return `${totals} Busiest ${unit}: ${when}, ${plural(busiest.count, 'operation', 'operations')}. Arrow keys step through the ${unit}s.`;
}
