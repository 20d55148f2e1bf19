import type { Account, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { appendEvent } from '../events/emit';
import {
  type AccountFilter,
  accountsExportSource,
  findAccountById,
  insertAccount,
  listAccounts,
} from './accounts.repository';

export async function listAccountsPage(db: Db, filter: AccountFilter): Promise<Paged<Account>> {
  const { rows, total } = await listAccounts(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every row the filter matches, in the list's order (its CSV export). */
export function exportAccounts(db: Db, filter: AccountFilter): AsyncIterable<Account> {
  return streamList(accountsExportSource(db, filter), { snapshot: db });
}

export async function getAccount(db: Db, id: string): Promise<Account> {
  const account = await findAccountById(db, id);
  if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
  return account;
}

function clientIdTaken(clientId: string) {
  return new AppError('CLIENT_ID_TAKEN', `An account with client ID '${clientId}' already exists`);
}

export async function createAccount(db: Db, actor: AuthUser, clientId: string): Promise<Account> {
  try {
    return await inTransaction(db, async (trx) => {
      const account = await insertAccount(trx, clientId);
      if (!account) throw clientIdTaken(clientId);
      await insertAudit(trx, {
        username: actor.username,
        message: `Created account for client '${clientId}'`,
        targetType: 'account',
        targetId: account.id,
        source: null,
        dest: account,
      });
      await appendEvent(trx, 'account.created', account);
      return account;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw clientIdTaken(clientId);
    throw error;
  }
}
