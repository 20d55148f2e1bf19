import type { Db } from '../../db/connection';
import { cardKey, posTransaction } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { type AccrualContext, readAccrualContexts, readEarnedTodayOf } from './accrual.repository';
import { insertAccruals } from './accrual-batch.repository';
import {
  accrualWrite,
  decideAccrual,
  earnedTodayOf,
  type PosAccrual,
  postAccrual,
  skusOf,
} from './pos-accrual';
import { type Batched, decideAndPersist, type SetBatchOptions, setBatches } from './set-batches';

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
 * second must see the first's balance). Under a ruleset that caps points per card and day, what each card
 * earned today is read in one more statement after the lock (`readEarnedTodayOf`), as the lone write reads it.
 */
export async function postAccrualBatch(trx: Tx, batch: readonly PosAccrual[]): Promise<Batched[]> {
  const skus = [...new Set(batch.flatMap((a) => skusOf(a.receipt.items)))];
  const contexts = await readAccrualContexts(trx, batch, skus);
  const earnedToday = await readCapped(trx, contexts);
  const accounts = new Set<string>();
  return decideAndPersist(
    batch,
    (a, index) => {
      const context = contexts[index]!;
      const accountId = context.account_id;
      if (!accountId || accounts.has(accountId)) return null;
      accounts.add(accountId);
      a.onContext?.(context);
      const { items, purchasedAt } = a.receipt;
      const decision = decideAccrual(context, { posId: a.posId, items, purchasedAt }, earnedToday.get(index));
      return accrualWrite(a, context, decision);
    },
    (writes) => insertAccruals(trx, writes),
  );
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
  write: postAccrualBatch,
  // One accrual in a transaction of its own: group-committed with its card's other writes (`posTransaction`).
  alone: (db, a) => posTransaction(db, cardKey(a.cardNumber), (trx) => postAccrual(trx, a)),
  key: (a) => cardKey(a.cardNumber),
});

/** POS accruals on `db` are batched from now on (the app does this once at build; null turns it off). */
export const useAccrualBatches = (db: Db, options: SetBatchOptions | null) => accrualBatches.use(db, options);

/** A POS accrual's transaction: batched when the app turned batches on for `db`, else written alone. */
export const accrualTransaction = (db: Db, a: PosAccrual) => accrualBatches.transaction(db, a);
