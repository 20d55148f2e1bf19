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
  if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`slice size must be ≥ 1, not ${size}`);
  // A turn before every slice, the first included: a caller walking batch after batch (the next one often
  // read already) would otherwise run one batch's last slice and the next one's first back to back.
  for (let start = 0; start < items.length; start += size) {
    await nextTurn();
    work(items.slice(start, start + size));
  }
}
