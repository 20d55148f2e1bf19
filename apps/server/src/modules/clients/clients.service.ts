import type { ClientLookupResponse } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { listAccounts } from '../accounts/accounts.repository';
import { listCards } from '../cards/cards.repository';
import { listOperations } from '../operations/operations.repository';
import { resolveAccountIds } from './clients.repository';

interface LookupPages {
  accountsPage: number;
  accountsSize: number;
  cardsPage: number;
  cardsSize: number;
  operationsPage: number;
  operationsSize: number;
}

/** The matched accounts, all their cards and their operations, each section paged on its own. */
export async function lookupClient(db: Db, text: string, pages: LookupPages): Promise<ClientLookupResponse> {
  const ids = await resolveAccountIds(db, text);
  const [accounts, cards, operations] = await Promise.all([
    listAccounts(db, { ids, page: pages.accountsPage, size: pages.accountsSize }),
    listCards(db, { accountIds: ids, page: pages.cardsPage, size: pages.cardsSize }),
    listOperations(db, { accountIds: ids, page: pages.operationsPage, size: pages.operationsSize }),
  ]);
  return {
    accounts: { content: accounts.rows, total: accounts.total },
    cards: { content: cards.rows, total: cards.total },
    operations: { content: operations.rows, total: operations.total },
  };
}
