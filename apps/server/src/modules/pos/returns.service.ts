import type { ReturnResponse } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { centsNumber } from '../../lib/money';
import { postReturn } from '../ledger/pos-return';
import { findAccrualForReturn, type ReturnableAccrual } from '../ledger/returns.repository';
import type { PosIdentity } from '../pos-keys/pos-keys.repository';
import { answerWrite } from './failures';
import { type PosOutcome, resolveExisting, successStatus, writeContext } from './idempotency';
import { findRequest } from './pos.repository';

interface ReturnInput {
  operationId: string;
  originalOperationId: string;
  items?: Array<{ sku: string; quantity: number }>;
}

/**
 * POST /pos/api/v1/returns: take back the points the returned lines earned, as an `adjustment` of the
 * accrual (the ledger's `postReturn`). This service finds which accrual is meant and keeps the POS
 * envelope: a replay of the operationId, and a refusal recorded as a failed operation. Refusals are thrown
 * before anything is written, so the transaction has nothing to undo but its locks.
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
  return answerWrite(
    db,
    ctx,
    () =>
      inTransaction(db, async (trx) => {
        original = await findAccrualForReturn(trx, pos.id, input.originalOperationId);
        if (!original) {
          throw new AppError('OPERATION_NOT_FOUND', 'No accrual with this operationId for this POS');
        }
        return postReturn(trx, {
          key: {
            operationId: input.operationId,
            posId: pos.id,
            hash: ctx.hash,
            status: successStatus.return,
          },
          original,
          originalOperationId: input.originalOperationId,
          items: input.items,
          answer: ({ taken, balanceAfter }): ReturnResponse => ({
            operationId: input.operationId,
            points: centsNumber(-taken),
            balance: centsNumber(balanceAfter),
          }),
        });
      }),
    () => {
      const found = original as ReturnableAccrual | undefined;
      return {
        points: '0',
        accountId: found?.account_id,
        cardId: found?.card_id,
        cardNumber: found?.card_number,
        relatedId: found?.id,
        meta: { returnOf: input.originalOperationId },
      };
    },
  );
}
