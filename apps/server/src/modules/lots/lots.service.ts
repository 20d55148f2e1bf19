import type { ExpirePointsResponse, ExpiryForecast, Lot, LotConsumption, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { amountNumber } from '../../lib/money';
import { toPage } from '../../lib/paging';
import type { AuthUser } from '../../plugins/auth';
import { findAccountById } from '../accounts/accounts.repository';
import { insertAudit } from '../audit/audit.repository';
import { expirePoints } from '../ledger/points-expiry';
import { expiryForecast, type LotFilter, listConsumptions, listLots, lotOfAccount } from './lots.repository';

async function requireAccount(db: Db, accountId: string): Promise<void> {
  if (!(await findAccountById(db, accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
}

/** GET /api/v1/accounts/{id}/lots. */
export async function accountLots(
  db: Db,
  accountId: string,
  query: Omit<LotFilter, 'accountId'>,
): Promise<Paged<Lot>> {
  await requireAccount(db, accountId);
  const { rows, total } = await listLots(db, { accountId, ...query });
  return toPage(rows, total, query.page, query.size);
}

/** GET /api/v1/accounts/{id}/lots/{lotId}/consumptions: a lot of another account is as unknown as none. */
export async function lotConsumptions(
  db: Db,
  accountId: string,
  lotId: string,
  query: { page: number; size: number },
): Promise<Paged<LotConsumption>> {
  if (!(await lotOfAccount(db, accountId, lotId))) {
    // Which is unknown: the account (its own code, as the lots list answers) or only the lot.
    await requireAccount(db, accountId);
    throw new AppError('NOT_FOUND', 'Lot not found');
  }
  const { rows, total } = await listConsumptions(db, { lotId, ...query });
  return toPage(rows, total, query.page, query.size);
}

/** GET /api/v1/accounts/{id}/expiry-forecast. */
export async function accountExpiryForecast(db: Db, accountId: string): Promise<ExpiryForecast> {
  await requireAccount(db, accountId);
  const f = await expiryForecast(db, accountId);
  return { in30Days: amountNumber(f.in30), in60Days: amountNumber(f.in60), in90Days: amountNumber(f.in90) };
}

/**
 * POST /api/v1/admin/points/expire: the sweeper's run, now, then who ran it in the audit log. The run is
 * many transactions (a batch of accounts each, every expiry an operation of its own), so the entry follows
 * them with the totals rather than sharing their transaction.
 */
export async function runPointsExpiry(db: Db, actor: AuthUser): Promise<ExpirePointsResponse> {
  const run = await expirePoints(db);
  await inTransaction(db, (trx) =>
    insertAudit(trx, {
      username: actor.username,
      message: `Ran points expiry: ${run.points} points expired on ${run.accounts} ${run.accounts === 1 ? 'account' : 'accounts'}`,
      targetType: 'operation',
      dest: run,
    }),
  );
  return run;
}
