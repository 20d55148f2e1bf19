import { isErasedClientIdOf } from '@loyalty/contracts';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { type Cents, centsText, MAX_BALANCE_CENTS, parseCents } from '../../lib/money';
import { appendOperationEvents } from '../events/emit';
import {
  findBookingCard,
  insertAdminAdjustment,
  type LockedAccount,
  lockAccountForPosting,
} from './ledger.repository';

export interface AdminAdjustment {
  accountId: string;
  /** Points added (the contract allows only positive amounts). */
  points: Cents;
  reason: string | null;
  createdBy: string;
}

export interface PostedAdjustment {
  /** operations.id of the adjustment. */
  id: string;
  balanceBefore: Cents;
  balanceAfter: Cents;
}

/**
 * Why a credit cannot be posted to the locked account, or null: the account is missing; its member's data
 * was erased (PROGRAMME-API §4 cleared the free-text reasons of its operations, and a new adjustment's reason
 * would sit in its operation, audit entry, export and event, never cleared: ACCOUNT_ERASED); or the balance
 * would pass what numeric(14, 2) stores (issue 15.2). Refused before anything is written, not a 500.
 */
export function adjustmentRefusal(account: LockedAccount | undefined, points: Cents): AppError | null {
  if (!account) return new AppError('ACCOUNT_NOT_FOUND');
  if (isErasedClientIdOf(account.client_id, account.id)) return new AppError('ACCOUNT_ERASED');
  if (parseCents(account.balance) + points > MAX_BALANCE_CENTS) return new AppError('BALANCE_LIMIT_EXCEEDED');
  return null;
}

/**
 * Points added by staff, inside the caller's transaction (which also writes the audit entry): lock the
 * account → decide → write the `adjustment` and the balance change together (ARCHITECTURE.md "Ledger
 * rules"). Under the lock, concurrent adjustments of one account add up.
 */
export async function postAdminAdjustment(trx: Tx, input: AdminAdjustment): Promise<PostedAdjustment> {
  const account = await lockAccountForPosting(trx, input.accountId);
  const refused = adjustmentRefusal(account, input.points);
  if (refused) throw refused;
  const card = await findBookingCard(trx, input.accountId);
  const posted = await insertAdminAdjustment(trx, {
    accountId: input.accountId,
    card: card ?? null,
    points: centsText(input.points),
    meta: input.reason ? { reason: input.reason } : {},
    createdBy: input.createdBy,
  });
  await appendOperationEvents(trx, 'points.adjusted', [posted.id]);
  return {
    id: posted.id,
    balanceBefore: parseCents(account!.balance),
    balanceAfter: parseCents(posted.balance),
  };
}
