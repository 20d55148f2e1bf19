import { posTransaction } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { centsText, parseCents } from '../../lib/money';
import { applyCaptures, lockHolds } from './capture-batch.repository';
import type { BatchLocks } from './ledger.repository';
import { captureWrite, type PosCapture, postCapture, settleable } from './pos-holds';
import { type Batched, decideAndPersist, inGroupCommit, setBatches } from './set-batches';
import type { CaptureWrite, LockedHold } from './settlements.repository';

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
 * Across cards the batch never waits for a lock, so it can neither stall behind a sweeper, a release or an
 * accrual of the same card nor deadlock with another batch; inside a card's group commit
 * (`capturesInGroupCommit`) it waits as the card's lone writes do (`locks`). A refusal is that capture's
 * answer (nothing of it is written; the service records it and voids an expired hold, as after a lone
 * refusal). A capture it cannot decide on its own read is left to be written alone, as it would be without batches: no hold was read
 * (unknown, malformed, or its hold or account locked by another transaction: SKIP LOCKED cannot tell), or
 * its hold already has a capture in this batch. Several captures of one account (a hot card) are decided one
 * after another, each on the balance the ones before it left, and written by the one statement.
 */
export async function postCaptureBatch(
  trx: Tx,
  batch: readonly BatchedCapture[],
  locks: BatchLocks = { wait: false },
): Promise<Batched[]> {
  const holds = await lockHolds(
    trx,
    batch.map((c) => c.holdId),
    locks,
  );
  return decideAndPersist<BatchedCapture, CaptureWrite>(batch, {
    account: (_c, index) => holds[index]?.account_id ?? null,
    decide: (c, index, earlier) => {
      const hold = holds[index];
      // A second capture of one hold must find it closed by the first: it goes alone, after the batch.
      if (earlier.some((w) => w.hold.hold_id === hold!.hold_id)) return null;
      return captureWrite(c, settleable(c, hold && afterEarlier(hold, earlier)));
    },
    persist: (writes) => applyCaptures(trx, writes),
  });
}

/** The hold as its account stands after the batch's earlier captures of that account. */
function afterEarlier(hold: LockedHold, earlier: readonly CaptureWrite[]): LockedHold {
  if (earlier.length === 0) return hold;
  const captured = earlier.reduce((sum, w) => sum + parseCents(w.captured), 0n);
  const held = earlier.reduce((sum, w) => sum + parseCents(w.hold.held), 0n);
  return {
    ...hold,
    balance: centsText(parseCents(hold.balance) - captured),
    held_balance: centsText(parseCents(hold.held_balance) - held),
  };
}

/** A hot card's captures queued together in its group commit: one batch there too. */
export const capturesInGroupCommit = inGroupCommit(
  (trx, batch: readonly BatchedCapture[]) => postCaptureBatch(trx, batch, { wait: true }),
  (stored) => stored,
);

/** Captures' set-based batches: `use` turns them on for a database, `transaction` is one capture's. */
export const captureBatches = setBatches<BatchedCapture>({
  name: 'capture',
  write: postCaptureBatch,
  // One capture in a transaction of its own: group-committed with its card's other writes, as without batches.
  alone: (db, c) =>
    posTransaction(db, c.commitKey, (trx) => postCapture(trx, c), { kind: capturesInGroupCommit, input: c }),
  // A capture of a card this server is already writing joins that card's group commit at once.
  key: (c) => c.commitKey,
});
