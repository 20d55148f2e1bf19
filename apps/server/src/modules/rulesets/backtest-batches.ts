import type { Db } from '../../db/connection';
import { type BacktestBatch, type BacktestCursor, readBacktestBatch } from './backtest.repository';

/** Reads in flight at once: two keep both of PostgreSQL's cores busy on a 2-core machine (BENCHMARKS.md). */
const IN_FLIGHT = 2;
/** The first window's share of the range; later windows are sized from what the earlier ones held. */
const FIRST_WINDOW_SHARE = 64;

interface PendingRead {
  window: { fromUs: number; toUs: number };
  /** The window's first batch: what it holds sizes the windows after it. */
  first: boolean;
  batch: Promise<BacktestBatch>;
}

/**
 * The batches of receipts of [from, to) in (created_at, accrual_id) order, each of at most `batchReceipts`
 * receipts. A keyset batch starts where the one before it ended, so one walk can only read one batch at a
 * time; here the range is cut into time windows known in advance, each walked by keyset, and up to
 * `inFlight` windows are read at once (on PostgreSQL, on as many of the pool's connections; PGlite's one
 * connection runs them one after another). Windows are sized to hold about one batch, from the receipts the
 * previous windows held. Memory stays flat: at most `inFlight` batches wait to be consumed.
 */
export async function* backtestBatches(
  db: Db,
  range: { from: string; to: string },
  batchReceipts: number,
  inFlight = IN_FLIGHT,
): AsyncGenerator<BacktestBatch> {
  // Window edges in microseconds: whole milliseconds around the range, which each read still applies exactly.
  const endUs = (Math.floor(Date.parse(range.to)) + 1) * 1000;
  let nextUs = Math.floor(Date.parse(range.from)) * 1000;
  let widthUs = Math.max(1000, Math.ceil((endUs - nextUs) / FIRST_WINDOW_SHARE));
  const queue: PendingRead[] = [];

  const read = (window: PendingRead['window'], after: BacktestCursor | null): PendingRead => {
    const batch = readBacktestBatch(db, { ...range, ...window }, after, batchReceipts);
    // Should the walk stop early (the computation throws), a read in flight must not become unhandled.
    batch.catch(() => undefined);
    return { window, first: after === null, batch };
  };
  const topUp = () => {
    while (queue.length < inFlight && nextUs < endUs) {
      const toUs = Math.min(endUs, nextUs + widthUs);
      queue.push(read({ fromUs: nextUs, toUs }, null));
      nextUs = toUs;
    }
  };

  topUp();
  for (let head = queue.shift(); head; head = queue.shift()) {
    const batch = await head.batch;
    const scanned = batch.receipts.length;
    const full = scanned === batchReceipts && batch.last !== null;
    // The window holds more: its next batch comes before any later window's.
    if (full) queue.unshift(read(head.window, batch.last));
    if (head.first) {
      // Aim at ¾ of a batch per window: half as wide after a full one, at most 4× wider after a sparse one.
      const scale = full ? 0.5 : scanned === 0 ? 4 : (0.75 * batchReceipts) / scanned;
      const width = head.window.toUs - head.window.fromUs;
      widthUs = Math.max(1000, Math.floor(width * Math.min(4, Math.max(0.5, scale))));
    }
    topUp();
    yield batch;
  }
}
