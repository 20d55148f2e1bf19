const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const secondsFormat = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** Points and amounts arrive as numbers or numeric strings; both count, anything else is 0. */
export function toNumber(value: number | string | null | undefined): number {
  if (value === null || value === undefined || value === '') return 0;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** en-US grouping with up to 2 decimals: 1234.5 → "1,234.5". */
export function formatNumber(value: number | string | null | undefined): string {
  return numberFormat.format(toNumber(value));
}

const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** A chart axis's short number: 2500000000 → "2.5B", 750000 → "750K"; a full one did not fit in 48 px. */
export function formatCompactNumber(value: number | string | null | undefined): string {
  return compactFormat.format(toNumber(value));
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: string | number | Date | null | undefined, empty = 'N/A'): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : empty;
}

export function formatDateTime(value: string | number | Date | null | undefined, empty = 'N/A'): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : empty;
}

export function formatTime(value: string | number | Date | null | undefined, empty = 'N/A'): string {
  const date = toDate(value);
  return date ? timeFormat.format(date) : empty;
}

/** The time of day to the second, for logs ('2:38:24 PM'). */
export function formatTimeWithSeconds(
  value: string | number | Date | null | undefined,
  empty = 'N/A',
): string {
  const date = toDate(value);
  return date ? secondsFormat.format(date) : empty;
}

const timestampFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** Date and time to the second, for logs. */
export function formatTimestamp(value: string | number | Date | null | undefined, empty = 'N/A'): string {
  const date = toDate(value);
  return date ? timestampFormat.format(date) : empty;
}

/**
 * How long ago, in the largest whole unit: "just now", "45 s ago", "3 min ago", "5 h ago", "2 days ago".
 * A time ahead of this clock (another machine's) is "just now".
 */
export function formatTimeAgo(
  value: string | number | Date | null | undefined,
  now = Date.now(),
  empty = 'N/A',
): string {
  const date = toDate(value);
  if (!date) return empty;
  const seconds = Math.floor((now - date.getTime()) / 1000);
  if (seconds < 1) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
