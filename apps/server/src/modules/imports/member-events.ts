import type { Tx } from '../../db/transaction';
import { findAccountsByIds } from '../accounts/accounts.repository';
import { findCardsByNumbers } from '../cards/cards.repository';
import { insertEvents } from '../events/events.repository';
import { createdMembers } from './imports.repository';

/** Events per outbox statement: a file's events are written in a few statements, not one per row. */
const EVENT_BATCH = 5000;

/** The created members a page at a time, so the server holds one page whatever the file's size. */
async function forEachCreatedPage(
  trx: Tx,
  each: (page: { accountId: string; cardNumber: string | null }[]) => Promise<void>,
): Promise<void> {
  for (let afterLine = 0; ; ) {
    const page = await createdMembers(trx, { afterLine, limit: EVENT_BATCH });
    if (page.length === 0) return;
    await each(page);
    afterLine = page[page.length - 1]!.line;
  }
}

/**
 * The outbox (PROGRAMME-API.md §5) for a member import, in its transaction: account.created and
 * card.issued for what the file created, as the admin API shows them (the opening points follow as
 * points.adjusted from the ledger).
 */
export async function appendMemberEvents(trx: Tx): Promise<void> {
  await forEachCreatedPage(trx, async (page) => {
    const accounts = await findAccountsByIds(
      trx,
      page.map((m) => m.accountId),
    );
    await insertEvents(
      trx,
      accounts.map((data) => ({ type: 'account.created', data })),
    );
  });
  await forEachCreatedPage(trx, async (page) => {
    const numbers = page.flatMap((m) => (m.cardNumber ? [m.cardNumber] : []));
    if (numbers.length === 0) return;
    const cards = await findCardsByNumbers(trx, numbers);
    await insertEvents(
      trx,
      cards.map((data) => ({ type: 'card.issued', data })),
    );
  });
}
