import { randomUUID } from 'node:crypto';

/**
 * A maker of UUIDs version 7 (RFC 9562 §5.7) that sort, as PostgreSQL compares uuids, in the order it made
 * them: the milliseconds, then a 12-bit counter within one millisecond (the clock standing still or going
 * back keeps the last millisecond and counts on), then the variant and 62 random bits, taken as they are from
 * a `randomUUID()` (same layout there, and Node's cached randomness).
 */
export function timeOrderedUuids(): (now?: number) => string {
  let lastMs = 0;
  let sequence = 0;
  return (now = Date.now()) => {
    if (now > lastMs) {
      lastMs = now;
      sequence = 0;
    } else if (++sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
    const ms = lastMs.toString(16).padStart(12, '0');
    const seq = sequence.toString(16).padStart(3, '0');
    return `${ms.slice(0, 8)}-${ms.slice(8)}-7${seq}${randomUUID().slice(18)}`;
  };
}

/**
 * The process's time-ordered ids. Rows written in one transaction share its timestamp; with these ids their
 * order is the one they were decided in (a backtest walks receipts by time, then id, and must meet a card's
 * receipts in the order its day cap met them).
 */
export const timeOrderedUuid = timeOrderedUuids();
