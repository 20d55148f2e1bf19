import { type BatchQueue, batchQueue, type Pending } from '../../db/batch-queue';
import type { Db } from '../../db/connection';
import { commitBatch, type SetKind, writing } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import type { StoredRequest } from '../pos/idempotency';
import { type HandOns, laneHandOn } from './lane-hand-on';

/** What a set-based batch did with one write: stored it, refused it, or left it to be written alone. */
export type Batched = { stored: StoredRequest } | { refused: AppError } | { alone: true };

export interface DecideAndPersist<I, W> {
  /**
   * The account the write moves as its read found it locked, or null when that read cannot decide it (its
   * card or hold not read: unknown, or locked elsewhere; a read that is not current).
   */
  account: (item: I, index: number) => string | null;
  /**
   * The write's row to persist, null to leave it alone, or its refusal thrown (an `AppError`). `earlier`: the
   * rows this batch already decided for the same account, in order: the read predates them, so the decision
   * must count them (a running balance), or leave the write alone when it cannot.
   */
  decide: (item: I, index: number, earlier: readonly W[]) => W | null;
  /** Stores the rows in one statement, answering each in their order. */
  persist: (writes: W[]) => Promise<StoredRequest[]>;
}

/**
 * The decide and persist steps of a kind's `write`, after its read: each write decided in the batch's order,
 * told the rows decided before it for its account (`decide`'s `earlier`), so several writes of one account
 * (a hot card) share the batch as they would follow each other alone. A write whose read cannot decide it
 * (`account` null), or whose operationId an earlier write of its account in the batch claims, is left alone.
 * One outcome per write, in order.
 */
export async function decideAndPersist<
  I extends { key: { operationId: string } },
  W extends { claim: { operationId: string } },
>(batch: readonly I[], { account, decide, persist }: DecideAndPersist<I, W>): Promise<Batched[]> {
  const writes: W[] = [];
  const byAccount = new Map<string, W[]>();
  // Each write's outcome, or the index of its row among `writes` until the statement has stored it.
  const decided: Array<Batched | number> = batch.map((item, index) => {
    const accountId = account(item, index);
    if (accountId === null) return { alone: true };
    const earlier = byAccount.get(accountId) ?? [];
    const { operationId } = item.key;
    // The same request twice (a till's retry): alone after the batch it replays the first's answer, where
    // in the batch its claim would fail the statement.
    if (earlier.some((w) => w.claim.operationId === operationId)) return { alone: true };
    try {
      const write = decide(item, index, earlier);
      if (write === null) return { alone: true };
      byAccount.set(accountId, [...earlier, write]);
      return writes.push(write) - 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { refused: error };
    }
  });
  const stored = writes.length > 0 ? await persist(writes) : [];
  return decided.map((d) => (typeof d === 'number' ? { stored: stored[d]! } : d));
}

export interface SetBatchKind<I> {
  /** What the batches write, as `/metrics` names them. */
  name: 'accrual' | 'hold' | 'capture';
  /**
   * The batch's writes in its transaction (issue 13): one statement reads and locks what every write needs,
   * never waiting for a lock (SKIP LOCKED), each write is decided by the rule its lone write uses, and one
   * statement persists them all. A write it cannot decide on its own read is `{ alone: true }`.
   * One outcome per write, in order.
   */
  write: (trx: Tx, batch: readonly I[]) => Promise<Batched[]>;
  /** One write in a transaction of its own, exactly as without batches. */
  alone: (db: Db, item: I) => Promise<StoredRequest>;
  /**
   * The group-commit key of what the write locks (`cardKey`). A write whose key this server is already
   * writing goes `alone` at once, into that key's group commit: in a batch it would find the account locked
   * (SKIP LOCKED) and go alone anyway, one batch later — a hot card's writes would all pay that detour.
   */
  key: (item: I) => string;
}

export interface SetBatchOptions {
  /** Batches being written at once (each may then still be committing). */
  lanes: number;
  /** The most writes one batch takes. */
  maxBatch: number;
  /** Told of each batch of two or more: its size, and whether it committed or was split. */
  onBatch?: (size: number, outcome: 'committed' | 'split') => void;
}

export interface SetBatches<I> {
  name: SetBatchKind<I>['name'];
  /** Writes of this kind on `db` are batched from now on (the app does this once at build); null: off. */
  use(db: Db, options: SetBatchOptions | null): BatchQueue<I> | null;
  /** One write's transaction: batched when `use` turned batches on for `db`, else written alone. */
  transaction(db: Db, item: I): Promise<StoredRequest>;
}

/**
 * Set-based batches of one kind of POS write across cards (accruals, holds, captures): while `lanes`
 * batches are being written on a server, writes of the kind queue (`db/batch-queue.ts`), and the next
 * batch takes up to `maxBatch` of them. Each batch is one transaction (`commitBatch`: a failing statement
 * splits it, each write then alone); each write is answered by its outcome, and those left alone are
 * written after the batch.
 */
export function setBatches<I>(kind: SetBatchKind<I>): SetBatches<I> {
  const queues = new WeakMap<Db, BatchQueue<I>>();

  const answerAlone = (db: Db, item: Pending<I>): Promise<void> =>
    kind.alone(db, item.input).then(item.resolve, item.reject);

  async function runBatch(
    db: Db,
    batch: Pending<I>[],
    options: SetBatchOptions,
    release: () => void,
    handOns: HandOns,
  ) {
    // Writes alone wait for their locks: past a write's time the lane may go on (lane-hand-on.ts).
    const lane = laneHandOn(handOns, release);
    try {
      if (batch.length === 1) return await lane.alone(() => answerAlone(db, batch[0]!));
      const outcomes = await commitBatch(db, batch, {
        write: (trx) =>
          kind.write(
            trx,
            batch.map((item) => item.input),
          ),
        release,
        alone: (item) => lane.alone(() => answerAlone(db, item)),
        onBatch: options.onBatch,
      });
      await answerOutcomes(db, batch, outcomes);
    } finally {
      lane.done();
    }
  }

  /** A committed batch's answers; the writes it left alone run after it (its lane was released before COMMIT). */
  async function answerOutcomes(db: Db, batch: Pending<I>[], outcomes: Batched[] | undefined) {
    if (!outcomes) return;
    await Promise.all(
      batch.map((item, i) => {
        const outcome = outcomes[i]!;
        if ('stored' in outcome) item.resolve(outcome.stored);
        else if ('refused' in outcome) item.reject(outcome.refused);
        else return answerAlone(db, item);
        return undefined;
      }),
    );
  }

  return {
    name: kind.name,
    use(db, options) {
      if (!options) {
        queues.delete(db);
        return null;
      }
      const handOns: HandOns = { waiting: 0 };
      const queue = batchQueue<I>({
        lanes: options.lanes,
        maxBatch: options.maxBatch,
        run: (batch, release) => runBatch(db, batch, options, release, handOns),
      });
      queues.set(db, queue);
      return queue;
    },
    transaction(db, item) {
      const queue = queues.get(db);
      const batched = queue && !writing(db, kind.key(item));
      return (batched ? queue.submit('batch', item) : kind.alone(db, item)) as Promise<StoredRequest>;
    },
  };
}

/**
 * A kind's set-based `write` in a card's group commit (`posTransaction`'s `set`): a hot card's writes of the
 * kind that queued together share one read and one persist statement there too (the read finds the account
 * free or locked by that same transaction, so it never skips it), each stored one answered with
 * `value(stored)`, what its lone work returns; a refusal as thrown; the rest run their lone work after.
 */
export function inGroupCommit<I>(
  write: SetBatchKind<I>['write'],
  value: (stored: StoredRequest) => unknown,
): SetKind<I> {
  return {
    write: async (trx, inputs) =>
      (await write(trx, inputs)).map((b) => {
        if ('stored' in b) return { ok: true, value: value(b.stored) };
        if ('refused' in b) return { ok: false, error: b.refused };
        return null;
      }),
  };
}
