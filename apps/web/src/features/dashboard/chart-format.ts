import type { AnalyticsGroupBy } from '@loyalty/contracts';

// One time base: the buckets are UTC hours and UTC days (the server's rollups), so every label is in UTC.
// Mixing the viewer's clock for hours with UTC days showed the same moment on two different dates.
const hourTick = new Intl.DateTimeFormat('en-US', { hour: 'numeric', timeZone: 'UTC' });
const hourLabel = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});
const dayTick = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLabel = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Axis tick: '2 PM' for hours, 'Jan 5' for days. */
export function formatTick(timestamp: string, groupBy: AnalyticsGroupBy): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  return (groupBy === 'hour' ? hourTick : dayTick).format(date);
}

/** Tooltip heading: 'Jan 5, 2:00 PM' for hours, 'Mon, Jan 5, 2025' for days. */
export function formatBucket(timestamp: string, groupBy: AnalyticsGroupBy): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  return (groupBy === 'hour' ? hourLabel : dayLabel).format(date);
}

/**
 * Round axis ticks from 0: the step is 1, 2, 2.5 or 5 × 10ⁿ, so ticks read 0, 250, 500, 750, 1,000 rather
 * than the library's 0, 233, 466. `count` is the most intervals wanted; whole numbers only.
 */
export function roundTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  // The first whole round step: 2.5 is skipped below 10 (rounding it up gave 0, 3, 6, 9, not a round axis).
  const step = Math.max(
    1,
    [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw && Number.isInteger(s)) ??
      10 * magnitude,
  );
  const ticks: number[] = [];
  for (let tick = 0; ticks.length === 0 || ticks[ticks.length - 1]! < max; tick += step) ticks.push(tick);
  return ticks;
}
