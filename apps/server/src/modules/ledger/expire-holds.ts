import type { Db } from '../../db/connection';
import { inTransaction, type Tx } from '../../db/transaction';
import { appendOperationEvents } from '../events/emit';
import { type ExpiredHolds, voidExpiredHolds } from './expired-holds.repository';

/** Voids expired holds inside the caller's transaction, each with its `hold.expired` event. */
export async function expireHoldsIn(trx: Tx, target: ExpiredHolds): Promise<void> {
  await appendOperationEvents(trx, 'hold.expired', await voidExpiredHolds(trx, target));
}

/** The same in a transaction of its own (a hold found lapsed is voided whatever its request gets). */
export function expireHolds(db: Db, target: ExpiredHolds): Promise<void> {
  return inTransaction(db, (trx) => expireHoldsIn(trx, target));
}
