/** One queued item: what was submitted, and how its caller is answered. */
export interface Pending<I> {
  input: I;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface BatchQueueOptions<I> {
  /** Batches of one key running at once (each may then still be committing). */
  lanes: number;
  /** The most items of one key one batch takes. */
  maxBatch: number;
  /**
   * Runs one batch and answers each of its items. `release` is called (by `run`, or at the latest when it
   * settles) once the batch no longer needs its lane: the key's next batch may then start.
   */
  run: (batch: Pending<I>[], release: () => void) => Promise<void>;
}

export interface BatchQueue<I> {
  /** Queues `input` under `key`: it runs in the next batch of that key, at once when a lane is free. */
  submit(key: string, input: I): Promise<unknown>;
  /** Items waiting for their batch. */
  queued(): number;
  /** True while a batch of `key` is working or its items wait. */
  busy(key: string): boolean;
  /**
   * Starts no batch until the returned function is called: what queues meanwhile goes in the next
   * batches. For tests, which need a batch made of exactly the requests they sent.
   */
  pause(): () => void;
}

interface Line<I> {
  queue: Pending<I>[];
  /** Batches of the key that have not released their lane yet. */
  working: number;
}

/**
 * The queueing half of group commit (`group-commit.ts`, and the set-based batches of accruals, holds and captures,
 * `modules/ledger/set-batches.ts`): while `lanes` batches of a key are working, that key's items wait,
 * and the next batch takes up to `maxBatch` of them. Keys never wait for each other.
 */
export function batchQueue<I>(options: BatchQueueOptions<I>): BatchQueue<I> {
  const lines = new Map<string, Line<I>>();
  let paused = 0;

  const start = (key: string, line: Line<I>) => {
    while (paused === 0 && line.working < options.lanes && line.queue.length > 0) {
      const batch = line.queue.splice(0, options.maxBatch);
      line.working++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        line.working--;
        start(key, line);
      };
      void options.run(batch, release).finally(release);
    }
    if (line.working === 0 && line.queue.length === 0) lines.delete(key);
  };

  return {
    submit: (key, input) =>
      new Promise((resolve, reject) => {
        let line = lines.get(key);
        if (!line) {
          line = { queue: [], working: 0 };
          lines.set(key, line);
        }
        line.queue.push({ input, resolve, reject });
        start(key, line);
      }),
    busy: (key) => lines.has(key),
    queued: () => {
      let queued = 0;
      for (const line of lines.values()) queued += line.queue.length;
      return queued;
    },
    pause: () => {
      paused++;
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        paused--;
        for (const [key, line] of [...lines]) start(key, line);
      };
    },
  };
}
