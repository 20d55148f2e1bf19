import { batchQueue, type Pending } from './batch-queue';
import { type Queued, type SetWrite, writeAll } from './batch-writes';
import type { Db } from './connection';
import { isConnectionError } from './connection-errors';
import { inTransaction, type Tx } from './transaction';

/** Work run in a transaction: what `inTransaction` takes. It must be safe to run again (see below). */
export type Work<T> = (trx: Tx) => Promise<T>;

export type { Outcome, SetKind, SetWrite } from './batch-writes';

export interface GroupCommitOptions {
  /** Transactions of one key doing their writes at once (each may then still be committing). */
  lanes: number;
  /** The most writes of one key one transaction takes. */
  maxBatch: number;
  /** Told of each batch of two or more: its size, and whether it committed or was split. */
  onBatch?: (size: number, outcome: 'committed' | 'split') => void;
}

export interface GroupCommit {
  /**
   * Runs `work` in a transaction. While `lanes` transactions of the same `key` are doing their writes on this
   * server, the writes of that key queue, and the next transaction takes them together.
   */
  run<T, I>(key: string, work: Work<T>, set?: SetWrite<I>): Promise<T>;
  /** Writes waiting for their key's transaction. */
  queued(): number;
  /** True while a transaction of `key` is doing its writes or its writes wait. */
  busy(key: string): boolean;
  /**
   * Starts no transaction until the returned function is called: what queues meanwhile goes in the next
   * batches. For tests, which need a batch made of exactly the requests they sent, without holding a connection.
   */
  pause(): () => void;
}

/**
 * Group commit (issue 13) of the writes that wait for the same lock: POS writes are keyed by their card, and
 * while a transaction of a card is doing its writes (`lanes`: 1 by default), that card's next writes queue.
 * When its writes are done, before its COMMIT, the next transaction starts with up to `maxBatch` of them and
 * runs them one after another: its BEGIN and first lock overlap the commit before it, and BEGIN, COMMIT (one
 * WAL flush) and the wait for the account's lock are paid once for all. Writes of different cards never wait
 * for each other here (each runs at once in a transaction of its own, as `inTransaction` runs it): a batch
 * across cards could stall every card of a server behind one lock held elsewhere (an import's accounts, a
 * sweeper's batch) and deadlock with another batch; one queue for all cards measured faster in two rounds of
 * three and was not shipped on that (BENCHMARKS.md "group commit of a card's writes"). Accruals, holds and
 * captures of many cards are batched another way, set-based and never waiting for a lock
 * (`modules/ledger/set-batches.ts`).
 *
 * Each write locks, decides and persists on its own (modules/ledger), and sees the writes before it in the
 * batch as a later transaction would; except that the writes of a kind with a set-based form (`posTransaction`'s
 * `set`: a hot card's holds, its captures) run together, in one read and one persist statement, at the place
 * of the first of them, each decided on the ones before it (`batch-writes.ts`). One write never fails its
 * neighbours:
 * - a refusal (an `AppError`, which the ledger throws before it writes anything) is that write's answer,
 *   and the batch goes on;
 * - any other error (a statement that failed, e.g. a duplicate operationId on the claim's unique key, a
 *   deadlock, a bug) rolls the whole batch back, and each of its writes runs again in a transaction of its
 *   own, so the failing one gets its error exactly as it would have alone, and the others their answers;
 * - a connection lost at COMMIT leaves every write of the batch ambiguous: each gets the error (503), as a
 *   lone write would, and the till retries with its operationId.
 */
export function groupCommit(db: Db, options: GroupCommitOptions): GroupCommit {
  const queue = batchQueue<Queued>({
    lanes: options.lanes,
    maxBatch: options.maxBatch,
    // `release` is called when the batch's writes are done, before its COMMIT: the next batch's BEGIN and
    // first lock then overlap the commit, and the account is handed over without a round trip of this server.
    run: (batch, release) => runBatch(db, batch, options, release),
  });
  return {
    run: <T, I>(key: string, work: Work<T>, set?: SetWrite<I>) =>
      // The queue holds writes of every kind; each kind only ever sees its own inputs (`writeAll`).
      queue.submit(key, { work, set: set as SetWrite<unknown> | undefined }) as Promise<T>,
    queued: queue.queued,
    busy: queue.busy,
    pause: queue.pause,
  };
}

async function runBatch(
  db: Db,
  batch: Pending<Queued>[],
  options: GroupCommitOptions,
  release: () => void,
): Promise<void> {
  if (batch.length === 1) return runAlone(db, batch[0]!, release);
  const outcomes = await commitBatch(db, batch, {
    write: (trx) =>
      writeAll(
        trx,
        batch.map((item) => item.input),
      ),
    release,
    alone: (item) => runAlone(db, item),
    onBatch: options.onBatch,
  });
  batch.forEach((item, i) => {
    const outcome = outcomes?.[i];
    if (!outcome) return;
    if (outcome.ok) item.resolve(outcome.value);
    else item.reject(outcome.error);
  });
}

export interface BatchSteps<I, R> {
  /** The batch's writes, in the transaction; an error other than a connection lost at COMMIT splits it. */
  write: (trx: Tx) => Promise<R>;
  /** Called once the writes are done, before COMMIT: the key's next batch may start. */
  release: () => void;
  /** One item written alone, and answered, after a split. */
  alone: (item: Pending<I>) => Promise<void>;
  onBatch?: (size: number, outcome: 'committed' | 'split') => void;
}

/**
 * A batch's transaction, the part every kind of batch shares: `write` in one transaction; committed, its
 * result (the caller answers each item from it); or, when a statement failed (a duplicate operationId on the
 * claim's unique key, a deadlock, a bug), rolled back and each item written `alone`, so the failing one gets
 * its error exactly as alone and the others their answers. A connection lost at COMMIT leaves every item
 * ambiguous: each gets the error (503), as a lone write would, and the till retries with its operationId.
 * Undefined when the items were already answered.
 */
export async function commitBatch<I, R>(
  db: Db,
  batch: Pending<I>[],
  steps: BatchSteps<I, R>,
): Promise<R | undefined> {
  let written = false;
  let result: R;
  try {
    result = await db.transaction().execute(async (trx) => {
      const done = await steps.write(trx);
      written = true;
      steps.release();
      return done;
    });
  } catch (error) {
    if (written && isConnectionError(error)) {
      for (const item of batch) item.reject(error);
      return undefined;
    }
    steps.onBatch?.(batch.length, 'split');
    await Promise.all(batch.map(steps.alone));
    return undefined;
  }
  steps.onBatch?.(batch.length, 'committed');
  return result;
}

function runAlone(db: Db, item: Pending<Queued>, release?: () => void): Promise<void> {
  return inTransaction(db, async (trx) => {
    const value = await item.input.work(trx);
    release?.();
    return value;
  }).then(item.resolve, item.reject);
}

const committers = new WeakMap<Db, GroupCommit>();

/** POS writes on `db` go through this group commit from now on (the app does this once at build). */
export function useGroupCommit(db: Db, options: GroupCommitOptions): GroupCommit {
  const commit = groupCommit(db, options);
  committers.set(db, commit);
  return commit;
}

/**
 * True while this server is writing `key` through group commit (`useGroupCommit`): a write of that key then
 * joins its queue rather than a set-based batch across cards, which would only find the account locked.
 */
export function writing(db: Db, key: string): boolean {
  return committers.get(db)?.busy(key) ?? false;
}

/** The key of the writes of one card: they all wait for its account's lock. */
export const cardKey = (cardNumber: string) => `card:${cardNumber}`;

/**
 * A POS write's transaction, keyed by what it will lock (`cardKey`): group-committed when the app turned it
 * on for `db` (`useGroupCommit`), else `inTransaction` (services called directly, e.g. by tests and seeds).
 */
export function posTransaction<T, I>(db: Db, key: string, work: Work<T>, set?: SetWrite<I>): Promise<T> {
  const commit = committers.get(db);
  return commit ? commit.run(key, work, set) : inTransaction(db, work);
}
