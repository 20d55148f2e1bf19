import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Runs `work` over `items` a slice of `size` at a time, giving the event loop a turn between slices. For
 * computation long enough to be felt by the requests that share this process: a till's request that arrives
 * while a backtest computes a batch of 20,000 receipts (≈ 0.1–0.2 s of JavaScript) waits for the slice in
 * progress only, not the whole batch.
 */
export async function forEachSlice<T>(
  items: readonly T[],
  size: number,
  work: (slice: readonly T[]) => void,
): Promise<void> {
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextTurn();
    work(items.slice(start, start + size));
  }
}
