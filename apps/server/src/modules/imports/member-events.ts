import type { Tx } from '../../db/transaction';
import { findAccountsByIds } from '../accounts/accounts.repository';
import { findCardsByNumbers } from '../cards/cards.repository';
import { insertEvents } from '../events/events.repository';
import { createdMembers } from './imports.repository';

/** Events per outbox statement: a file's events are written in a few statements, not one per row. */
const EVENT_BATCH = 5000;

function inBatches<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += EVENT_BATCH) batches.push(items.slice(i, i + EVENT_BATCH));
  return batches;
}

/**
 * The outbox (PROGRAMME-API.md §5) for a member import, in its transaction: account.created and
 * card.issued for what the file created, as the admin API shows them (the opening points follow as
 * points.adjusted from the ledger).
 */
export async function appendMemberEvents(trx: Tx): Promise<void> {
  const { accountIds, cardNumbers } = await createdMembers(trx);
  for (const ids of inBatches(accountIds)) {
    const accounts = await findAccountsByIds(trx, ids);
    await insertEvents(
      trx,
      accounts.map((data) => ({ type: 'account.created', data })),
    );
  }
  for (const numbers of inBatches(cardNumbers)) {
    const cards = await findCardsByNumbers(trx, numbers);
    await insertEvents(
      trx,
      cards.map((data) => ({ type: 'card.issued', data })),
    );
  }
}
