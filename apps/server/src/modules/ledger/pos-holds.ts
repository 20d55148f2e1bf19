import { randomUUID } from 'node:crypto';
import { isUuid } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { cardKey, posTransaction, type SetKind } from '../../db/group-commit';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { type Cents, centsText, parseCents } from '../../lib/money';
import type { StoredRequest } from '../pos/idempotency';
import { expireHoldsIn } from './expire-holds';
import {
  availableFor,
  captureReason,
  holdExpiry,
  holdRefusal,
  needsLapsedVoided,
  type Settlement,
  settleRefusal,
} from './hold-rules';
import { type HoldTarget, type HoldWrite, insertHold, lockHoldTarget } from './holds.repository';
import type { PosRequestKey } from './ledger.repository';
import {
  applyCapture,
  applyRelease,
  type CaptureWrite,
  type LockedHold,
  lockHold,
} from './settlements.repository';

export interface PosHold {
  key: PosRequestKey;
  holdId: string;
  cardNumber: string;
  points: Cents;
  /** The answer stored for the request and its replays (the caller serialises it). */
  answer: (made: { expiresAt: Date; availableAfter: Cents }) => unknown;
  /** Told what was read, so the caller can record a refusal against the card and account. */
  onTarget?: (target: HoldTarget) => void;
}

/** Lapsed holds keep appearing in the way only if others keep expiring meanwhile: then the verdict stands. */
const ATTEMPTS = 3;

/**
 * A POS hold, in its own transaction: lock the account → decide (`holdRefusal`) → write the hold with the
 * stored answer. When it fits only once the account's lapsed holds are voided, they are voided first in a
 * transaction of their own, queued in the card's group commit like the card's writes, and the hold is tried
 * again. Refusals are thrown before anything is written. `set`: the holds' set-based form, for the
 * card's group commit to write several of its holds together (`hold-batch.ts`).
 */
export async function postHold(db: Db, h: PosHold, set?: SetKind<PosHold>): Promise<StoredRequest> {
  for (let attempt = 1; ; attempt++) {
    const posted = await posTransaction(
      db,
      cardKey(h.cardNumber),
      (trx) => holdOnce(trx, h),
      set && { kind: set, input: h },
    );
    if ('stored' in posted) return posted.stored;
    if (attempt === ATTEMPTS) throw new AppError('INSUFFICIENT_FUNDS');
    // In the card's group commit too: it takes the lapsed hold rows before the account, and a batch of the
    // card's writes on this server (one capturing a lapsed hold) takes them the other way round; queued
    // behind each other they cannot deadlock.
    await posTransaction(db, cardKey(h.cardNumber), (trx) =>
      expireHoldsIn(trx, { accountId: posted.lapsedOn }),
    );
  }
}

async function holdOnce(trx: Tx, h: PosHold): Promise<{ stored: StoredRequest } | { lapsedOn: string }> {
  const target = await lockHoldTarget(trx, h.cardNumber, h.key.posId);
  h.onTarget?.(target);
  const write = decideHold(h, target);
  if (!write) return { lapsedOn: target.account_id! };
  return { stored: await insertHold(trx, write) };
}

/**
 * A hold decided on what its lock read (`holdRefusal`, thrown; `holdExpiry`, `availableFor` for its
 * answer): what to write, or null when it fits only once the account's lapsed holds are voided. The lone
 * hold and the batch (`hold-batch.ts`) decide with it.
 */
export function decideHold(h: PosHold, target: HoldTarget): HoldWrite | null {
  const refused = holdRefusal(target, h.points);
  if (refused) throw refused;
  if (needsLapsedVoided(target, h.points)) return null;
  const expiresAt = holdExpiry(target.now, target.ttl_minutes);
  const response = h.answer({ expiresAt, availableAfter: availableFor(target) - h.points });
  return {
    claim: { ...h.key, response },
    operation: {
      id: h.holdId,
      operation_id: h.key.operationId,
      type: 'hold',
      points: centsText(-h.points),
      status: 'active',
      account_id: target.account_id!,
      card_number: h.cardNumber,
      pos_id: h.key.posId,
      pos_name: target.pos_name,
      pos_address: target.pos_address,
      created_at: target.now,
      meta: {},
    },
    cardId: target.card_id!,
    expiresAt,
  };
}

export interface PosSettlement<S extends Settlement, Made> {
  key: PosRequestKey;
  holdId: string;
  settlement: S;
  answer: (made: Made) => unknown;
  /** Told what was locked (undefined: no such hold), so the caller can record a refusal against it. */
  onHold?: (hold: LockedHold | undefined) => void;
}

/** What a settlement's operation (the redemption, or the hold itself) shares with the hold, for its event. */
function settledRow(hold: LockedHold) {
  return {
    account_id: hold.account_id,
    card_number: hold.card_number,
    pos_id: hold.pos_id,
    pos_name: hold.pos_name,
    pos_address: hold.pos_address,
  };
}

/** Lock the hold and its account → `settleRefusal`; the hold as locked when it may be settled. */
async function lockToSettle(
  trx: Tx,
  s: Omit<PosSettlement<Settlement, unknown>, 'answer'>,
): Promise<LockedHold> {
  // A malformed id cannot name a hold (and would be a cast error in SQL).
  return settleable(
    s,
    isUuid(s.holdId) ? await lockHold(trx, s.holdId, s.settlement.kind === 'release') : undefined,
  );
}

/**
 * The hold as locked (undefined: none), told to `onHold`, when it may be settled (`settleRefusal`); else the
 * refusal is thrown. A lone settlement's and a set-based batch's (`capture-batch.ts`) decision.
 */
export function settleable(
  s: Omit<PosSettlement<Settlement, unknown>, 'answer'>,
  hold: LockedHold | undefined,
): LockedHold {
  s.onHold?.(hold);
  const refused = settleRefusal(hold, s.key.posId, s.settlement);
  if (refused) throw refused;
  return hold!;
}

/** A capture's request: all of the hold, or `settlement.points` of it; answered with what it did. */
export type PosCapture = PosSettlement<
  Extract<Settlement, { kind: 'capture' }>,
  { holdId: string; captured: Cents; balanceAfter: Cents }
>;

/**
 * A capture inside the caller's transaction: all or part of the hold is redeemed and the rest released;
 * the answer is told the hold's id as stored, the captured points and the balance after.
 */
export async function postCapture(trx: Tx, s: PosCapture): Promise<StoredRequest> {
  return applyCapture(trx, captureWrite(s, await lockToSettle(trx, s)));
}

/**
 * What a capture of a hold that may be settled writes (`applyCapture`, or a batch's `applyCaptures`): the
 * captured points, the balance after and the hold's reason, and the answer over them.
 */
export function captureWrite(s: PosCapture, hold: LockedHold): CaptureWrite {
  const held = parseCents(hold.held);
  const captured = s.settlement.points ?? held;
  const balanceAfter = parseCents(hold.balance) - captured;
  const reason = captureReason(held, captured);
  return {
    claim: { ...s.key, response: s.answer({ holdId: hold.hold_id, captured, balanceAfter }) },
    hold,
    operation: {
      ...settledRow(hold),
      id: randomUUID(),
      operation_id: s.key.operationId,
      type: 'redemption',
      points: centsText(-captured),
      status: 'completed',
      created_at: hold.now,
      // The hold it captured (also its related_id): in the stored meta and in its points.redeemed event.
      meta: { reason, holdId: hold.hold_id },
    },
    reason,
    captured: centsText(captured),
  };
}

/** A release inside the caller's transaction: the hold's points are available again. */
export async function postRelease(
  trx: Tx,
  s: PosSettlement<Extract<Settlement, { kind: 'release' }>, { holdId: string; availableAfter: Cents }>,
): Promise<StoredRequest> {
  const hold = await lockToSettle(trx, s);
  const availableAfter = availableFor({
    ...hold,
    held_balance: centsText(parseCents(hold.held_balance) - parseCents(hold.held)),
    lapsed: hold.account_lapsed,
    pending: hold.account_pending,
  });
  const reason = 'Released';
  return applyRelease(trx, {
    claim: { ...s.key, response: s.answer({ holdId: hold.hold_id, availableAfter }) },
    hold,
    operation: {
      ...settledRow(hold),
      id: hold.hold_id,
      operation_id: hold.operation_id,
      type: 'hold',
      points: centsText(-parseCents(hold.held)),
      status: 'voided',
      created_at: hold.created_at,
      meta: { ...(hold.meta as object), reason },
    },
    reason,
  });
}
