import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { retryStatement } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { centsText, parseCents, toCents } from '../../lib/money';
import { isUuid } from '../../lib/uuid';
import { voidExpiredHolds } from '../ledger/expired-holds.repository';
import type { PosIdentity } from '../pos-keys/pos-keys.repository';
import { recordFailure } from './failures';
import {
  captureHold,
  existingOf,
  type HoldStateRow,
  insertHold,
  readHoldState,
  readHoldTarget,
  releaseHold,
} from './holds.repository';
import {
  firstAnswer,
  type PosOutcome,
  resolveExisting,
  type WriteContext,
  writeContext,
} from './idempotency';
import { findRequest } from './pos.repository';

/**
 * Each write is tried as one statement first (the common case costs one round trip); only when it does
 * nothing is the state read to say why. A state that no longer refuses (it changed in between) is tried
 * again, a bounded number of times.
 */
const ATTEMPTS = 3;

async function attempt(ctx: WriteContext, db: Db, write: () => Promise<unknown>) {
  try {
    const stored = (await retryStatement(write)) as Parameters<typeof firstAnswer>[1] | undefined;
    return stored ? firstAnswer(ctx.kind, stored) : undefined;
  } catch (error) {
    if (isUniqueViolation(error)) return resolveExisting(await findRequest(db, ctx.operationId), ctx);
    throw error;
  }
}

/** POST /pos/api/v1/holds. */
export async function createHold(
  db: Db,
  pos: PosIdentity,
  input: { operationId: string; cardNumber: string; points: number },
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('hold', pos.id, '', input, requestId);
  const points = toCents(input.points);
  const key = { operationId: input.operationId, posId: pos.id, hash: ctx.hash };
  for (let i = 0; i < ATTEMPTS; i++) {
    const done = await attempt(ctx, db, () =>
      insertHold(db, {
        ...key,
        holdId: randomUUID(),
        cardNumber: input.cardNumber,
        points: centsText(points),
      }),
    );
    if (done) return done;
    const target = await readHoldTarget(db, input.operationId, input.cardNumber);
    const existing = existingOf(target);
    if (existing) return resolveExisting(existing, ctx);
    let refused: AppError;
    if (!target.card_id) refused = new AppError('CARD_NOT_FOUND');
    else if (target.card_status !== 'active') refused = new AppError('CARD_BLOCKED');
    else if (parseCents(target.available!) < points) refused = new AppError('INSUFFICIENT_FUNDS');
    else {
      // Enough once lapsed holds stop counting: void them (the sweeper may not have yet) and try again.
      if (parseCents(target.lapsed!) > 0n)
        await retryStatement(() => voidExpiredHolds(db, { accountId: target.account_id! }));
      continue;
    }
    return recordFailure(db, ctx, refused, {
      points: centsText(-points),
      accountId: target.account_id,
      cardId: target.card_id,
      cardNumber: input.cardNumber,
    });
  }
  // Funds kept going to other holds between the write and the look: the write's verdict stands.
  return recordFailure(db, ctx, new AppError('INSUFFICIENT_FUNDS'), {
    points: centsText(-points),
    cardNumber: input.cardNumber,
  });
}

/** Why a capture or release of this hold by this POS cannot go ahead (POS-API.md "Capture"). */
function holdRefusal(state: HoldStateRow, posId: string, capture: bigint | null): AppError | null {
  if (!state.hold_id) return new AppError('HOLD_NOT_FOUND');
  if (state.pos_id !== posId) return new AppError('NO_ACTIVE_HOLD_FOR_POS');
  // Expired from the moment its time passed, whether or not the sweeper has voided it since (issue 15.5).
  if (state.expired) return new AppError('HOLD_EXPIRED');
  if (state.status !== 'active') return new AppError('ALREADY_CAPTURED_OR_CLOSED');
  if (capture !== null && state.card_status !== 'active') return new AppError('CARD_BLOCKED');
  if (capture !== null && capture > parseCents(state.held!)) {
    return new AppError('INSUFFICIENT_FUNDS', `Capture exceeds the held points (${state.held})`);
  }
  return null;
}

async function settleHold(
  db: Db,
  ctx: WriteContext,
  holdId: string,
  capture: bigint | null,
  write: () => Promise<unknown>,
): Promise<PosOutcome> {
  for (let i = 0; i < ATTEMPTS; i++) {
    if (isUuid(holdId)) {
      const done = await attempt(ctx, db, write);
      if (done) return done;
    }
    const state = await readHoldState(db, ctx.operationId, holdId);
    const existing = existingOf(state);
    if (existing) return resolveExisting(existing, ctx);
    const refused = holdRefusal(state, ctx.posId, capture);
    if (!refused) continue;
    const ours = state.hold_id !== null && state.pos_id === ctx.posId;
    return recordFailure(db, ctx, refused, {
      points: capture === null ? '0' : centsText(-capture),
      // Another POS learns nothing about the hold, and its failure is not linked to it.
      accountId: ours ? state.account_id : null,
      cardId: ours ? state.card_id : null,
      cardNumber: ours ? state.card_number : null,
      relatedId: ours ? state.hold_id : null,
      meta: { holdId },
      voidExpiredHoldId: refused.code === 'HOLD_EXPIRED' ? state.hold_id : null,
    });
  }
  throw new AppError('CONFLICT', 'The hold kept changing; try again');
}

/** POST /pos/api/v1/holds/{holdId}/capture: all or part of the hold; the rest is released. */
export async function captureHoldRequest(
  db: Db,
  pos: PosIdentity,
  holdId: string,
  input: { operationId: string; points?: number },
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('capture', pos.id, holdId, input, requestId);
  const points = input.points === undefined ? null : toCents(input.points);
  // A full capture is "whatever is held": the refusal checks compare nothing.
  return settleHold(db, ctx, holdId, points ?? 0n, () =>
    captureHold(db, {
      operationId: input.operationId,
      posId: pos.id,
      hash: ctx.hash,
      holdId,
      points: points === null ? null : centsText(points),
    }),
  );
}

/** POST /pos/api/v1/holds/{holdId}/release. */
export async function releaseHoldRequest(
  db: Db,
  pos: PosIdentity,
  holdId: string,
  input: { operationId: string },
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('release', pos.id, holdId, input, requestId);
  return settleHold(db, ctx, holdId, null, () =>
    releaseHold(db, { operationId: input.operationId, posId: pos.id, hash: ctx.hash, holdId }),
  );
}
