import { metricSum } from '../apps/server/src/plugins/metrics.test-support';

/**
 * How the server group-committed a phase's POS writes (issue 13), from its `/metrics`: the
 * `loyalty_pos_group_commit_batch_size` histogram's sums and counts by outcome (every kind of batch), read
 * before and after.
 */
interface Totals {
  committed: { sum: number; count: number };
  split: { count: number };
}

async function read(port: number): Promise<Totals> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (what: 'sum' | 'count', outcome: string) =>
    metricSum(text, `loyalty_pos_group_commit_batch_size_${what}`, { outcome });
  return {
    committed: { sum: value('sum', 'committed'), count: value('count', 'committed') },
    split: { count: value('count', 'split') },
  };
}

export interface Batching {
  /** Writes that committed in a transaction shared with others. */
  batched: number;
  batches: number;
  /** Batches rolled back and run again one write per transaction. */
  splits: number;
}

export async function batchMeter(port: number): Promise<{ stop(): Promise<Batching> }> {
  const start = await read(port);
  return {
    async stop() {
      const end = await read(port);
      return {
        batched: end.committed.sum - start.committed.sum,
        batches: end.committed.count - start.committed.count,
        splits: end.split.count - start.split.count,
      };
    },
  };
}

export function describeBatching(requests: number, b: Batching): string {
  if (b.batches === 0 && b.splits === 0) return 'no shared transactions';
  const share = Math.round((100 * b.batched) / Math.max(requests, 1));
  const mean = (b.batched / Math.max(b.batches, 1)).toFixed(1);
  return `${share}% of writes in shared transactions, ${mean} per batch, ${b.splits} batches split`;
}
