import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { retryStatement } from '../../db/transaction';
import type { AppError } from '../../lib/app-error';
import { voidExpiredHolds } from '../ledger/expired-holds.repository';
import {
  failureBody,
  firstAnswer,
  operationTypeOf,
  type PosOutcome,
  resolveExisting,
  type WriteContext,
} from './idempotency';
import { findRequest, insertFailure } from './pos.repository';

interface FailureDetails {
  points: string;
  accountId?: string | null;
  cardId?: string | null;
  cardNumber?: string | null;
  relatedId?: string | null;
  meta?: Record<string, unknown>;
  /** A hold found expired: voided first, in its own statement (it is due whatever this request gets). */
  voidExpiredHoldId?: string | null;
}

/**
 * Records a refused write (POS-API.md "Failed writes") under its operationId and answers with the error;
 * a retry of the same request replays this answer. If the id was taken meanwhile, that request wins.
 */
export async function recordFailure(
  db: Db,
  ctx: WriteContext,
  error: AppError,
  details: FailureDetails,
): Promise<PosOutcome> {
  const holdId = details.voidExpiredHoldId;
  if (holdId) await retryStatement(() => voidExpiredHolds(db, { holdId }));
  try {
    const stored = await retryStatement(() =>
      insertFailure(db, {
        operationId: ctx.operationId,
        posId: ctx.posId,
        hash: ctx.hash,
        status: error.status,
        body: failureBody(error, ctx.requestId),
        type: operationTypeOf[ctx.kind],
        points: details.points,
        accountId: details.accountId,
        cardId: details.cardId,
        cardNumber: details.cardNumber,
        relatedId: details.relatedId,
        meta: { ...details.meta, error: error.code },
      }),
    );
    if (stored) return firstAnswer(ctx.kind, stored);
  } catch (failure) {
    if (!isUniqueViolation(failure)) throw failure;
  }
  return resolveExisting(await findRequest(db, ctx.operationId), ctx);
}
