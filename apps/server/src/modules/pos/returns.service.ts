import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { centsNumber, centsText, minBig, parseCents } from '../../lib/money';
import { voidExpiredHolds } from '../ledger/expired-holds.repository';
import type { PosIdentity } from '../pos-keys/pos-keys.repository';
import { recordFailure } from './failures';
import { firstAnswer, type PosOutcome, resolveExisting, writeContext } from './idempotency';
import { findRequest } from './pos.repository';
import { planReturn } from './return-plan';
import {
  applyReturn,
  findAccrualForReturn,
  lockAccount,
  lockReceiptLines,
  type ReturnableAccrual,
} from './returns.repository';

interface ReturnInput {
  operationId: string;
  originalOperationId: string;
  items?: Array<{ sku: string; quantity: number }>;
}

/**
 * POST /pos/api/v1/returns: take back the points the returned lines earned, as an `adjustment` of the
 * accrual. The balance never goes below what holds need: the return takes what is available and records
 * the shortfall in meta. Refusals are thrown before anything is written, so the transaction has nothing
 * to undo but its locks.
 */
export async function returnPoints(
  db: Db,
  pos: PosIdentity,
  input: ReturnInput,
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('return', pos.id, '', input, requestId);
  const earlier = await findRequest(db, input.operationId);
  if (earlier) return resolveExisting(earlier, ctx);
  let original: ReturnableAccrual | undefined;
  try {
    const stored = await inTransaction(db, async (trx) => {
      original = await findAccrualForReturn(trx, pos.id, input.originalOperationId);
      if (!original) {
        throw new AppError('OPERATION_NOT_FOUND', 'No accrual with this operationId for this POS');
      }
      const plan = planReturn(await lockReceiptLines(trx, original.id), input.items);
      // Lapsed holds no longer count as held (issue 15.5): void them before what is available is read.
      await voidExpiredHolds(trx, { accountId: original.account_id });
      const account = await lockAccount(trx, original.account_id);
      const available = parseCents(account.balance) - parseCents(account.held_balance);
      const taken = minBig(plan.pointsCents, available > 0n ? available : 0n);
      const shortfall = plan.pointsCents - taken;
      return applyReturn(trx, {
        operationId: input.operationId,
        posId: pos.id,
        hash: ctx.hash,
        original,
        lines: plan.lines,
        taken: centsText(taken),
        meta: {
          reason: `Return of receipt ${original.receipt_id}`,
          receipt: original.receipt_id,
          returnOf: input.originalOperationId,
          earnedPoints: centsNumber(plan.pointsCents),
          ...(shortfall > 0n ? { shortfall: centsNumber(shortfall) } : {}),
        },
      });
    });
    return firstAnswer('return', stored);
  } catch (error) {
    if (isUniqueViolation(error)) return resolveExisting(await findRequest(db, input.operationId), ctx);
    if (!(error instanceof AppError)) throw error;
    const found = original as ReturnableAccrual | undefined;
    return recordFailure(db, ctx, error, {
      points: '0',
      accountId: found?.account_id,
      cardId: found?.card_id,
      cardNumber: found?.card_number,
      relatedId: found?.id,
      meta: { returnOf: input.originalOperationId },
    });
  }
}
