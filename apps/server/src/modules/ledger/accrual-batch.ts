import { type BatchQueue, batchQueue, type Pending } from '../../db/batch-queue';
import type { Db } from '../../db/connection';
import { cardKey, commitBatch, posTransaction } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import type { StoredRequest } from '../pos/idempotency';
import { type AccrualWrite, readAccrualContexts } from './accrual.repository';
import { insertAccruals } from './accrual-batch.repository';
import { accrualWrite, decideAccrual, type PosAccrual, postAccrual, skusOf } from './pos-accrual';

/** What a batch did with one accrual: wrote it, refused it, or left it to be written alone. */
export type BatchedAccrual = { stored: StoredRequest } | { refused: AppError } | { alone: true };

/**
 * Accruals of several cards in one transaction, set-based (issue 13): one statement reads and locks every
 * account (`readAccrualContexts`, SKIP LOCKED), each accrual is decided in TypeScript by the rule the lone
 * write uses (`decideAccrual`), and one statement writes them all (`insertAccruals`), so BEGIN, COMMIT,
 * the round trips and the derived-data triggers are paid once per batch instead of once per accrual.
 *
 * The batch never waits for a lock, so it can neither stall behind a lock held elsewhere (an import, a
 * sweeper, a hold of the same card) nor deadlock with another batch. An accrual it cannot decide on its
 * own read is left to be written alone, as it would be without batches: its account was locked by
 * another transaction (or its card is unknown), its account already has an accrual in this batch (the
 * second must see the first's balance), or the ruleset caps points per card and day (the cap reads what
 * the card earned today after the lock, one statement per card).
 */
export async function postAccrualBatch(trx: Tx, batch: readonly PosAccrual[]): Promise<BatchedAccrual[]> {
  const skus = [...new Set(batch.flatMap((a) => skusOf(a.receipt.items)))];
  const contexts = await readAccrualContexts(trx, batch, skus);
  const accounts = new Set<string>();
  const writes: AccrualWrite[] = [];
  // Each accrual's outcome, or the index of its write among `writes` until the statement has stored it.
  const decided: Array<BatchedAccrual | number> = batch.map((a, index) => {
    const context = contexts[index]!;
    const accountId = context.account_id;
    const capped = context.earning_rules?.maxPointsPerCardPerDay != null;
    if (!accountId || accounts.has(accountId) || capped) return { alone: true };
    accounts.add(accountId);
    a.onContext?.(context);
    const { items, purchasedAt } = a.receipt;
    try {
      const decision = decideAccrual(context, { posId: a.posId, items, purchasedAt });
      return writes.push(accrualWrite(a, context, decision)) - 1;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { refused: error };
    }
  });
  const stored = writes.length > 0 ? await insertAccruals(trx, writes) : [];
  return decided.map((d) => (typeof d === 'number' ? { stored: stored[d]! } : d));
}

export interface AccrualBatchOptions {
  /** Batches being written at once (each may then still be committing). */
  lanes: number;
  /** The most accruals one batch takes. */
  maxBatch: number;
  /** Told of each batch of two or more: its size, and whether it committed or was split. */
  onBatch?: (size: number, outcome: 'committed' | 'split') => void;
}

const batchers = new WeakMap<Db, BatchQueue<PosAccrual>>();

/**
 * POS accruals on `db` are batched from now on (the app does this once at build; null turns it off): while
 * `lanes` batches are being written, accruals queue, and the next batch takes up to `maxBatch` of them.
 */
export function useAccrualBatches(
  db: Db,
  options: AccrualBatchOptions | null,
): BatchQueue<PosAccrual> | null {
  if (!options) {
    batchers.delete(db);
    return null;
  }
  const queue = batchQueue<PosAccrual>({
    lanes: options.lanes,
    maxBatch: options.maxBatch,
    run: (batch, release) => runBatch(db, batch, options, release),
  });
  batchers.set(db, queue);
  return queue;
}

/** A POS accrual's transaction: batched when the app turned batches on for `db`, else written alone. */
export function accrualTransaction(db: Db, a: PosAccrual): Promise<StoredRequest> {
  const batcher = batchers.get(db);
  return (batcher ? batcher.submit('accruals', a) : alone(db, a)) as Promise<StoredRequest>;
}

/** One accrual in a transaction of its own: group-committed with its card's other writes (`posTransaction`). */
const alone = (db: Db, a: PosAccrual) =>
  posTransaction(db, cardKey(a.cardNumber), (trx) => postAccrual(trx, a));

function answerAlone(db: Db, item: Pending<PosAccrual>): Promise<void> {
  return alone(db, item.input).then(item.resolve, item.reject);
}

/** One batch (`commitBatch`): each accrual answered by its outcome, those left alone written after it. */
async function runBatch(
  db: Db,
  batch: Pending<PosAccrual>[],
  options: AccrualBatchOptions,
  release: () => void,
): Promise<void> {
  if (batch.length === 1) return answerAlone(db, batch[0]!);
  const outcomes = await commitBatch(db, batch, {
    write: (trx) =>
      postAccrualBatch(
        trx,
        batch.map((item) => item.input),
      ),
    release,
    alone: (item) => answerAlone(db, item),
    onBatch: options.onBatch,
  });
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
