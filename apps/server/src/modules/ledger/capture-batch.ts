import { posTransaction } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { applyCaptures, lockHolds } from './capture-batch.repository';
import { captureWrite, type PosCapture, postCapture, settleable } from './pos-holds';
import { type Batched, decideAndPersist, setBatches } from './set-batches';

export interface BatchedCapture extends PosCapture {
  /**
   * What its lone write is group-committed under (`posTransaction`): its card's key when this server made
   * the hold, else the hold's own (the service's `settleKey`).
   */
  commitKey: string;
}

/**
 * Captures of several cards in one transaction, set-based (issue 13), as accruals are (`accrual-batch.ts`):
 * one statement reads and locks every hold with its account (`lockHolds`, SKIP LOCKED), each capture is
 * decided in TypeScript by the lone rules (`settleable`, `captureWrite`), and one statement writes them all
 * (`applyCaptures`).
 *
 * The batch never waits for a lock, so it can neither stall behind a sweeper, a release or an accrual of
 * the same card nor deadlock with another batch. A refusal is that capture's answer (nothing of it is
 * written; the service records it and voids an expired hold, as after a lone refusal). A capture it cannot
 * decide on its own read is left to be written alone, as it would be without batches: no hold was read
 * (unknown, malformed, or its hold or account locked by another transaction: SKIP LOCKED cannot tell), or
 * its account already has a capture in this batch (the second must see the first's balance; a second
 * capture of one hold is one of these).
 */
export async function postCaptureBatch(trx: Tx, batch: readonly BatchedCapture[]): Promise<Batched[]> {
  const holds = await lockHolds(
    trx,
    batch.map((c) => c.holdId),
  );
  return decideAndPersist(batch, {
    account: (_c, index) => holds[index]?.account_id ?? null,
    decide: (c, index) => captureWrite(c, settleable(c, holds[index])),
    persist: (writes) => applyCaptures(trx, writes),
  });
}

/** Captures' set-based batches: `use` turns them on for a database, `transaction` is one capture's. */
export const captureBatches = setBatches<BatchedCapture>({
  write: postCaptureBatch,
  // One capture in a transaction of its own: group-committed with its card's other writes, as without batches.
  alone: (db, c) => posTransaction(db, c.commitKey, (trx) => postCapture(trx, c)),
  // A capture of a card this server is already writing joins that card's group commit at once.
  key: (c) => c.commitKey,
});
