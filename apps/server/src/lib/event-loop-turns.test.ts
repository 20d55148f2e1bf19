import { describe, expect, it } from 'vitest';
import { forEachSlice } from './event-loop-turns';

describe('forEachSlice', () => {
  it('works through every item in order, a slice at a time', async () => {
    const seen: number[][] = [];
    await forEachSlice([1, 2, 3, 4, 5, 6, 7], 3, (slice) => seen.push([...slice]));
    expect(seen).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    await forEachSlice([], 3, (slice) => seen.push([...slice]));
    expect(seen).toHaveLength(3);
  });

  it('lets work waiting on the event loop run before each slice, never inside one', async () => {
    const order: string[] = [];
    // Queued before the walk starts: it runs at the first turn the walk gives, before the first slice.
    setImmediate(() => order.push('queued before'));
    await forEachSlice(['a', 'b', 'c', 'd'], 2, (slice) => {
      order.push(slice.join(''));
      // Arrives while a slice is computed: it runs before the next one.
      if (slice[0] === 'a') setImmediate(() => order.push('arrived during ab'));
    });
    expect(order).toEqual(['queued before', 'ab', 'arrived during ab', 'cd']);
  });

  it('refuses a slice size that would never move on', async () => {
    await expect(forEachSlice([1], 0, () => undefined)).rejects.toThrow(RangeError);
    await expect(forEachSlice([1], 0.5, () => undefined)).rejects.toThrow(RangeError);
  });
});
