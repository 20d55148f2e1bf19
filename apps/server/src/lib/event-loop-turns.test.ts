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

  it('lets work waiting on the event loop run between two slices, never inside one', async () => {
    const order: string[] = [];
    // Queued before the walk starts: it runs at the first turn the walk gives.
    setImmediate(() => order.push('other request'));
    await forEachSlice(['a', 'b', 'c', 'd'], 2, (slice) => order.push(slice.join('')));
    expect(order).toEqual(['ab', 'other request', 'cd']);
  });
});
