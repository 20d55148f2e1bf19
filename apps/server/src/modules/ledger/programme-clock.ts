/**
 * The programme's clock: an instant as a day of the week, a minute of the day and a calendar day in the
 * programme time zone (setting `programme.timezone`, IANA). Rules' days and hours and the per-card day cap
 * are read on it, by the accrual and the backtest alike.
 */
export interface ProgrammeTime {
  /** 1 = Monday … 7 = Sunday. */
  dayOfWeek: number;
  /** 0 … 1439. */
  minute: number;
  /** The calendar day, YYYY-MM-DD: the per-card-per-day cap's day. */
  day: string;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();
// A backtest reads a month of receipts: zones change offset on whole minutes, so one answer per minute is
// enough, and formatting (a few µs) is done once per minute of receipts instead of once per receipt.
const minutes = new Map<string, ProgrammeTime>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function programmeTime(at: Date, timeZone: string): ProgrammeTime {
  const key = `${timeZone}|${Math.floor(at.getTime() / 60_000)}`;
  const hit = minutes.get(key);
  if (hit) return hit;
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(at)) parts[part.type] = part.value;
  const time: ProgrammeTime = {
    dayOfWeek: WEEKDAYS[parts.weekday!]!,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    day: `${parts.year}-${parts.month}-${parts.day}`,
  };
  if (minutes.size >= 100_000) minutes.clear();
  minutes.set(key, time);
  return time;
}

/**
 * `programmeTime` for a walk in time order (the backtest): instants in milliseconds, and the last minute's
 * answer kept at hand, since receipts in time order mostly share their minute with the one before.
 */
export function programmeClock(timeZone: string): (epochMs: number) => ProgrammeTime {
  let lastMinute = Number.NaN;
  let last: ProgrammeTime | undefined;
  return (epochMs) => {
    const minute = Math.floor(epochMs / 60_000);
    if (minute !== lastMinute || !last) {
      last = programmeTime(new Date(epochMs), timeZone);
      lastMinute = minute;
    }
    return last;
  };
}
