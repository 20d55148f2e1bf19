import type { Settings } from '@loyalty/contracts';

/**
 * Wall-clock times of the programme: a schedule ("Active From", rule hours) means the time on the
 * programme's clocks (setting `programme.timezone`), not the clock of the browser that typed it. A manager
 * abroad must schedule the change for the programme's midnight, not their own. Only Intl: no zone library.
 */

// The server's default when the setting is not stored (PROGRAMME-API.md "programme.timezone").
const DEFAULT_TIME_ZONE = 'UTC';

/** The programme's IANA zone; while settings load (or from a server without the setting) the default. */
export function programmeTimeZone(settings: Settings | undefined): string {
  // `?.` on programme too: an answer from a server older than the setting has no programme group.
  return settings?.programme?.timezone ?? DEFAULT_TIME_ZONE;
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone and use: building one costs far more than formatting with it. */
function cached(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
) {
  let format = cache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
    cache.set(timeZone, format);
  }
  return format;
}

const partsFormat = (timeZone: string) =>
  cached(partsFormats, timeZone, {
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });

/** The zone's offset from UTC at an instant, in ms (Berlin in winter: +3 600 000). */
function offsetAt(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const { type, value } of partsFormat(timeZone).formatToParts(instant)) parts[type] = Number(value);
  // Some engines write midnight as 24 even with h23.
  const wall = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour! % 24,
    parts.minute!,
    parts.second!,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const DAY = 86_400_000;

/**
 * A datetime-local value ('2026-12-01T00:00') read as the time on the zone's clocks → the instant (ISO),
 * or null when the text is not such a value.
 *
 * Where a change of clocks makes the wall time not unique, it is resolved as a person setting their
 * watch would (as Temporal's 'compatible'):
 * - a time that does not exist (spring forward, e.g. 02:30 in Berlin on the last Sunday of March) moves
 *   forward by the gap: it is 03:30 summer time;
 * - a time that happens twice (fall back, 02:30 on the last Sunday of October) is the earlier instant,
 *   the first 02:30 (summer time).
 * The offsets 24 h either side bound the candidates: no zone changes its clocks twice within a day.
 */
export function zonedLocalToIso(local: string, timeZone: string): string | null {
  const m = LOCAL.exec(local);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [number, ...number[]];
  // setUTCFullYear, not Date.UTC: that one reads the years 0–99 as 1900–1999.
  const check = new Date(0);
  check.setUTCFullYear(y, mo! - 1, d!);
  check.setUTCHours(h!, mi!, s!, 0);
  // A day past the month's end rolls over into the next month; such a day is no date.
  if (check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d || h! > 23) return null;
  const wall = check.getTime();
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  // Each offset in force near that day gives a candidate; it is real when the zone shows the wall time then.
  const real = [wall - before, wall - after].filter((t) => t + offsetAt(t, timeZone) === wall);
  // Both real: the overlap, take the earlier. None: the gap; the offset from before the change moves it
  // forward by the gap's length (02:30 at +01:00 is 01:30Z, which reads 03:30 at +02:00).
  const instant = real.length > 0 ? Math.min(...real) : wall - before;
  return new Date(instant).toISOString();
}

/**
 * An instant's date and time on the zone's clocks, the time with the zone's short name: {date: 'Dec 1,
 * 2026', time: '12:00 AM GMT+1'}. The name says whose clock it is, and tells the two 02:30s of a fall-back
 * night apart. Null for an empty or unreadable value.
 */
export function zonedDateAndTime(
  value: string | null | undefined,
  timeZone: string,
): { date: string; time: string } | null {
  if (!value) return null;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return null;
  const date = cached(dateFormats, timeZone, { year: 'numeric', month: 'short', day: 'numeric' });
  const time = cached(timeFormats, timeZone, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
  return { date: date.format(instant), time: time.format(instant) };
}

/** The same on one line: 'Dec 1, 2026, 12:00 AM GMT+1'; empty values give `empty`. */
export function formatZonedDateTime(
  value: string | null | undefined,
  timeZone: string,
  empty = 'N/A',
): string {
  const parts = zonedDateAndTime(value, timeZone);
  return parts ? `${parts.date}, ${parts.time}` : empty;
}

/** The label beside such a time: 'Programme time (Europe/Berlin)'. */
export const programmeTimeLabel = (timeZone: string) => `Programme time (${timeZone})`;
