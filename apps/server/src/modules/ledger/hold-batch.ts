import { cardKey } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { type Cents, centsText, parseCents } from '../../lib/money';
import { insertHolds, lockHoldTargets } from './hold-batch.repository';
import { type HoldWrite, readAgainIfStale } from './holds.repository';
import type { BatchLocks } from './ledger.repository';
import { decideHold, type PosHold, postHold } from './pos-holds';
import { type Batched, decideAndPersist, inGroupCommit, setBatches } from './set-batches';

/**
 * Holds of several cards in one transaction, set-based (issue 13): one statement reads and locks every
 * account (`lockHoldTargets`, SKIP LOCKED), each hold is decided in TypeScript by the rule the lone write
 * uses (`decideHold`: `holdRefusal`, `holdExpiry`, `availableFor`), and one statement writes them all
 * (`insertHolds`), so BEGIN, COMMIT, the round trips and the derived-data triggers are paid once per batch
 * instead of once per hold.
 *
 * Across cards the batch never waits for a lock, so it can neither stall behind a lock held elsewhere (an
 * import, the sweeper, a capture of the same card) nor deadlock with another batch; inside a card's group
 * commit (`holdsInGroupCommit`) it waits as the card's lone writes do (`locks`). A hold it cannot decide on its
 * own read is left to be written alone (`postHold`), as it would be without batches: its account was locked by
 * another transaction (or its card is unknown: SKIP LOCKED cannot tell them apart), the account changed between
 * the read's snapshot and its lock (`current` false: the lone write reads the lapsed holds and pending points
 * again), it fits only once the account's lapsed holds are voided (a statement of its own, before the hold's
 * lock). Several holds of one account (a hot card) are decided one after another, each counting the points of
 * those before it as held, and written by the one statement.
 */
export async function postHoldBatch(
  trx: Tx,
  batch: readonly PosHold[],
  locks: BatchLocks = { wait: false },
): Promise<Batched[]> {
  const read = await lockHoldTargets(
    trx,
    batch.map((h) => ({ cardNumber: h.cardNumber, posId: h.key.posId })),
    locks,
  );
  const targets = locks.wait ? await readAgainIfStale(trx, read) : read;
  return decideAndPersist<PosHold, HoldWrite>(batch, {
    account: (_h, index) => (targets[index]!.current ? targets[index]!.account_id : null),
    decide: (h, index, earlier) => {
      const { current: _current, ...seen } = targets[index]!;
      // The account's holds decided before this one in the batch are held already.
      const target = { ...seen, held_balance: centsText(parseCents(seen.held_balance!) + heldBy(earlier)) };
      h.onTarget?.(target);
      return decideHold(h, target);
    },
    persist: (writes) => insertHolds(trx, writes),
  });
}

/**
 * A hot card's holds queued together in its group commit: one batch there too, its read waiting for the
 * account as the lone hold's does (`holdOnce` answers `{ stored }`).
 */
export const holdsInGroupCommit = inGroupCommit(
  (trx, batch: readonly PosHold[]) => postHoldBatch(trx, batch, { wait: true }),
  (stored) => ({ stored }),
);

/**
 * Holds' set-based batches: `use` turns them on for a database, `transaction` is one hold's. Alone, a hold is
 * `postHold`: group-committed with its card's other writes, its lapsed holds voided first when they are in
 * the way.
 */
export const holdBatches = setBatches<PosHold>({
  name: 'hold',
  write: postHoldBatch,
  alone: (db, h) => postHold(db, h, holdsInGroupCommit),
  key: (h) => cardKey(h.cardNumber),
});

/** The points the holds `writes` hold (their operations' points are negative). */
export const heldBy = (writes: readonly HoldWrite[]): Cents =>
  writes.reduce((sum, w) => sum - parseCents(w.operation.points), 0n);
