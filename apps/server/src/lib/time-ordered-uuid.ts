import { randomFillSync } from 'node:crypto';

/**
 * A maker of UUIDs version 7 (RFC 9562 §5.7) that sort, as PostgreSQL compares uuids, in the order it made
 * them: the milliseconds, then a 12-bit counter within one millisecond (the clock standing still or going
 * back keeps the last millisecond and counts on), then 62 random bits.
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
    const bytes = randomFillSync(Buffer.alloc(16));
    bytes.writeUIntBE(lastMs, 0, 6);
    bytes[6] = 0x70 | (sequence >> 8);
    bytes[7] = sequence & 0xff;
    bytes[8] = 0x80 | (bytes[8]! & 0x3f);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/**
 * The process's time-ordered ids. Rows written in one transaction share its timestamp; with these ids their
 * order is the one they were decided in (a backtest walks receipts by time, then id, and must meet a card's
 * receipts in the order its day cap met them).
 */
export const timeOrderedUuid = timeOrderedUuids();
