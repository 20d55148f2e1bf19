import { isUuid } from '@loyalty/contracts';
import { describe, expect, it } from 'vitest';
import { timeOrderedUuids } from './time-ordered-uuid';

describe('timeOrderedUuid', () => {
  it('is a version 7, RFC 9562 variant UUID carrying its millisecond', () => {
    const at = Date.parse('2026-11-28T12:00:00.123Z');
    const id = timeOrderedUuids()(at);
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect('89ab').toContain(id[19]);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts in the order made: within one millisecond, past 4,096 of them, and when the clock goes back', () => {
    const base = Date.now();
    const clocks = [
      ...Array.from({ length: 5000 }, () => base),
      base - 60_000, // the clock stepped back: the ids still come after the ones before
      base + 1,
      base + 5,
    ];
    const next = timeOrderedUuids();
    const ids = clocks.map((ms) => next(ms));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
