import { cardKey, posTransaction } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import {
  type AccrualContext,
  type AccrualWrite,
  readAccrualContexts,
  readEarnedTodayOf,
} from './accrual.repository';
import { insertAccruals } from './accrual-batch.repository';
import {
  accrualWrite,
  decideAccrual,
  earnedTodayOf,
  type PosAccrual,
  postAccrual,
  skusOf,
} from './pos-accrual';
import { type Batched, decideAndPersist, setBatches } from './set-batches';

/**
 * Accruals of several cards in one transaction, set-based (issue 13): one statement reads and locks every
 * account (`readAccrualContexts`, SKIP LOCKED), each accrual is decided in TypeScript by the rule the lone
 * write uses (`decideAccrual`), and one statement writes them all (`insertAccruals`), so BEGIN, COMMIT,
 * the round trips and the derived-data triggers are paid once per batch instead of once per accrual.
 *
 * The batch never waits for a lock, so it can neither stall behind a lock held elsewhere (an import, a
 * sweeper, a hold of the same card) nor deadlock with another batch. An accrual it cannot decide on its
 * own read is left to be written alone, as it would be without batches: its account was locked by
 * another transaction (or its card is unknown), or its account already has an accrual in this batch (the
 * second must see the first's balance). Under a ruleset that caps points per card and day, what each card
 * earned today is read in one more statement after the lock (`readEarnedTodayOf`), as the lone write reads it.
 */
export async function postAccrualBatch(trx: Tx, batch: readonly PosAccrual[]): Promise<Batched[]> {
  const skus = [...new Set(batch.flatMap((a) => skusOf(a.receipt.items)))];
  const contexts = await readAccrualContexts(trx, batch, skus);
  const earnedToday = await readCapped(trx, contexts);
  return decideAndPersist<PosAccrual, AccrualWrite>(batch, {
    account: (_a, index) => contexts[index]!.account_id,
    // A second accrual of an account is left alone: its lots and its event's pending points would need the
    // first's, which this statement does not carry.
    decide: (a, index, earlier) => {
      if (earlier.length > 0) return null;
      const context = contexts[index]!;
      a.onContext?.(context);
      const { items, purchasedAt } = a.receipt;
      const decision = decideAccrual(context, { posId: a.posId, items, purchasedAt }, earnedToday.get(index));
      return accrualWrite(a, context, decision);
    },
    persist: (writes) => insertAccruals(trx, writes),
  });
}

/** What each capped card earned today (`earnedTodayOf`), by its index in the batch; none when nothing caps. */
async function readCapped(trx: Tx, contexts: readonly AccrualContext[]): Promise<Map<number, string>> {
  const capped = contexts.flatMap((context, index) => {
    const of = earnedTodayOf(context);
    return of ? [{ index, of }] : [];
  });
  if (capped.length === 0) return new Map();
  const earned = await readEarnedTodayOf(
    trx,
    capped.map((c) => c.of),
  );
  return new Map(capped.map((c, i) => [c.index, earned[i]!]));
}

/** Accruals' set-based batches: `use` turns them on for a database, `transaction` is one accrual's. */
export const accrualBatches = setBatches<PosAccrual>({
  name: 'accrual',
  write: postAccrualBatch,
  // One accrual in a transaction of its own: group-committed with its card's other writes (`posTransaction`).
  alone: (db, a) => posTransaction(db, cardKey(a.cardNumber), (trx) => postAccrual(trx, a)),
  key: (a) => cardKey(a.cardNumber),
});
