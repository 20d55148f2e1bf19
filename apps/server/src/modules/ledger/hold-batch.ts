import { cardKey } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { insertHolds, lockHoldTargets } from './hold-batch.repository';
import { decideHold, type PosHold, postHold } from './pos-holds';
import { type Batched, decideAndPersist, setBatches } from './set-batches';

/**
 * Holds of several cards in one transaction, set-based (issue 13): one statement reads and locks every
 * account (`lockHoldTargets`, SKIP LOCKED), each hold is decided in TypeScript by the rule the lone write
 * uses (`decideHold`: `holdRefusal`, `holdExpiry`, `availableFor`), and one statement writes them all
 * (`insertHolds`), so BEGIN, COMMIT, the round trips and the derived-data triggers are paid once per batch
 * instead of once per hold.
 *
 * The batch never waits for a lock, so it can neither stall behind a lock held elsewhere (an import, the
 * sweeper, a capture of the same card) nor deadlock with another batch. A hold it cannot decide on its own
 * read is left to be written alone (`postHold`), as it would be without batches: its account was locked by
 * another transaction (or its card is unknown: SKIP LOCKED cannot tell them apart), the account changed
 * between the read's snapshot and its lock (`current` false: the lone write reads the lapsed holds and
 * pending points again), it fits only once the account's lapsed holds are voided (a statement of its own,
 * before the hold's lock), or its account already has a hold in this batch (the second must see the
 * first's held points).
 */
export async function postHoldBatch(trx: Tx, batch: readonly PosHold[]): Promise<Batched[]> {
  const targets = await lockHoldTargets(
    trx,
    batch.map((h) => ({ cardNumber: h.cardNumber, posId: h.key.posId })),
  );
  return decideAndPersist(batch, {
    account: (_h, index) => (targets[index]!.current ? targets[index]!.account_id : null),
    decide: (h, index) => {
      const { current: _current, ...target } = targets[index]!;
      h.onTarget?.(target);
      return decideHold(h, target);
    },
    persist: (writes) => insertHolds(trx, writes),
  });
}

/**
 * Holds' set-based batches: `use` turns them on for a database, `transaction` is one hold's. Alone, a hold is
 * `postHold`: group-committed with its card's other writes, its lapsed holds voided first when they are in
 * the way.
 */
export const holdBatches = setBatches<PosHold>({
  write: postHoldBatch,
  alone: postHold,
  key: (h) => cardKey(h.cardNumber),
});
