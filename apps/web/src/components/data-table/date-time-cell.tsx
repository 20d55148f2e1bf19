import { formatDate, formatTime, formatTimeWithSeconds } from '@/lib/format';

/**
 * A table's date and time on two lines (the time smaller and muted), so the column stays narrow and the
 * time is never cut: on one line "Nov 28, 2026, 2:38:24 PM" lost its AM/PM in the Audit Logs' column.
 * `seconds` for logs.
 */
export function DateTimeCell({ value, seconds = false }: { value: string; seconds?: boolean }) {
  return (
    <time dateTime={value} className="block leading-tight">
      <span className="block">{formatDate(value)}</span>
      {/* Read (and copied) as one: 'Nov 28, 2026, 2:38 PM'. */}
      <span className="sr-only">, </span>
      <span className="block text-xs text-muted-foreground">
        {seconds ? formatTimeWithSeconds(value) : formatTime(value)}
      </span>
    </time>
  );
}
