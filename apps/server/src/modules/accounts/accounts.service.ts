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
import { type Created, createUnderKey } from '../ledger/admin-idempotency';
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

/**
 * A new account. With an Idempotency-Key (`createUnderKey`), the same request again gets the first account
 * back: a create whose answer was lost is not refused as "already exists" by its own retry. The answer kept
 * under the key holds the client ID: an erasure deletes it (`forgetCreateAnswers`).
 */
export async function createAccount(
  db: Db,
  actor: AuthUser,
  clientId: string,
  idempotencyKey?: string,
): Promise<Created<Account>> {
  const keyed = { key: idempotencyKey, userId: actor.id, route: 'create-account', request: { clientId } };
  try {
    return await inTransaction(db, (trx) =>
      createUnderKey(trx, keyed, async () => {
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
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw clientIdTaken(clientId);
    throw error;
  }
}
