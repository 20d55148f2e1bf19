import type { ManualAccrualResponse } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { amountNumber, amountText, MAX_BALANCE_CENTS, parseCents } from '../../lib/money';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { insertAdminOperation } from '../operations/operations.repository';
import { addToBalance, findActiveCard, lockAccount } from './accounts.repository';

/**
 * Points added by staff: the `adjustment` operation that justifies them and the balance change land in
 * one transaction (ARCHITECTURE.md "Ledger rules"), under the account lock so concurrent accruals add up.
 */
export async function manualAccrual(
  db: Db,
  actor: AuthUser,
  input: { accountId: string; points: number; reason: string | null },
): Promise<ManualAccrualResponse> {
  // Exact decimal text for SQL; the request schema already allows at most 2 decimals.
  const points = amountText(input.points);
  return inTransaction(db, async (trx) => {
    const account = await lockAccount(trx, input.accountId);
    if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
    // Issue 15.2: refused before anything is written, rather than a numeric overflow (500).
    if (parseCents(account.balance) + parseCents(points) > MAX_BALANCE_CENTS) {
      throw new AppError('BALANCE_LIMIT_EXCEEDED');
    }
    const card = await findActiveCard(trx, input.accountId);
    const operation = await insertAdminOperation(trx, {
      type: 'adjustment',
      status: 'completed',
      points,
      accountId: input.accountId,
      card: card ?? null,
      meta: input.reason ? { reason: input.reason } : {},
      createdBy: actor.username,
    });
    const balance = await addToBalance(trx, input.accountId, points);
    await insertAudit(trx, {
      username: actor.username,
      message: `Added ${points} points to account${input.reason ? `: ${input.reason}` : ''}`,
      targetType: 'account',
      targetId: input.accountId,
      source: { balance: amountNumber(account.balance) },
      dest: { balance: amountNumber(balance), operationId: operation.id, points: amountNumber(points) },
    });
    return { operation, balance: amountNumber(balance) };
  });
}
