import type { AnalyticsGroupBy } from '@loyalty/contracts';

// Hours read in the viewer's clock; days are UTC days (a bucket is one), so they are labelled in UTC:
// in a UTC-5 browser the bucket 'Jan 5 00:00 UTC' is still Jan 5, not Jan 4.
const hourTick = new Intl.DateTimeFormat('en-US', { hour: 'numeric' });
const hourLabel = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dayTick = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayLabel = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

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

/** Y axis: 950, 1.2K, 3.4M. */
export function formatCompact(value: number): string {
  return compact.format(value);
}
