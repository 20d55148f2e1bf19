import type { ExpiryForecast, Lot, LotStatus, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { amountNumber } from '../../lib/money';
import { toPage } from '../../lib/paging';
import { findAccountById } from '../accounts/accounts.repository';
import { expiryForecast, listLots } from './lots.repository';

async function requireAccount(db: Db, accountId: string): Promise<void> {
  if (!(await findAccountById(db, accountId))) throw new AppError('ACCOUNT_NOT_FOUND');
}

/** GET /api/v1/accounts/{id}/lots. */
export async function accountLots(
  db: Db,
  accountId: string,
  query: { status?: LotStatus | undefined; page: number; size: number },
): Promise<Paged<Lot>> {
  await requireAccount(db, accountId);
  const { rows, total } = await listLots(db, { accountId, ...query });
  return toPage(rows, total, query.page, query.size);
}

/** GET /api/v1/accounts/{id}/expiry-forecast. */
export async function accountExpiryForecast(db: Db, accountId: string): Promise<ExpiryForecast> {
  await requireAccount(db, accountId);
  const f = await expiryForecast(db, accountId);
  return { in30Days: amountNumber(f.in30), in60Days: amountNumber(f.in60), in90Days: amountNumber(f.in90) };
}
