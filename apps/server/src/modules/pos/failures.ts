import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { retryStatement } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { expireHolds } from '../ledger/expire-holds';
import { insertFailure } from '../ledger/failed-operations.repository';
import {
  failureBody,
  firstAnswer,
  operationTypeOf,
  type PosOutcome,
  resolveExisting,
  type StoredRequest,
  type WriteContext,
} from './idempotency';
import { findRequest } from './pos.repository';

export interface FailureDetails {
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
  if (holdId) await expireHolds(db, { holdId });
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

/**
 * A POS write inside its envelope: the first answer as the ledger stored it; a replay (or a 409) when
 * the operationId was claimed already, which the claim's unique key tells; a refusal (an AppError thrown
 * before anything was written) recorded as a failed operation with `failure`'s details.
 */
export async function answerWrite(
  db: Db,
  ctx: WriteContext,
  write: () => Promise<StoredRequest>,
  failure: (error: AppError) => FailureDetails,
): Promise<PosOutcome> {
  try {
    return firstAnswer(ctx.kind, await write());
  } catch (error) {
    if (isUniqueViolation(error)) return resolveExisting(await findRequest(db, ctx.operationId), ctx);
    if (!(error instanceof AppError)) throw error;
    return recordFailure(db, ctx, error, failure(error));
  }
}
