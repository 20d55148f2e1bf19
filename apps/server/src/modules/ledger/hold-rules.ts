import { AppError } from '../../lib/app-error';
import { type Cents, centsText, parseCents } from '../../lib/money';
import { availableCents } from './available';
import type { HoldTarget } from './holds.repository';
import type { LockedHold } from './settlements.repository';

/** How long a hold lasts when the `holds.ttl_minutes` setting is unset (POS-API.md "Hold"). */
export const DEFAULT_HOLD_TTL_MINUTES = 15;

/** When a hold made at `now` expires. */
export function holdExpiry(now: Date, ttlMinutes: number | null): Date {
  return new Date(now.getTime() + (ttlMinutes ?? DEFAULT_HOLD_TTL_MINUTES) * 60_000);
}

/**
 * What the account can still hold: balance − held − pending (PROGRAMME-API §1), where a lapsed hold no
 * longer counts as held; never negative.
 */
export function availableFor(
  target: Pick<HoldTarget, 'balance' | 'held_balance' | 'lapsed' | 'pending'>,
): Cents {
  return availableCents({
    balance: parseCents(target.balance!),
    held: parseCents(target.held_balance!),
    pending: parseCents(target.pending),
    lapsed: parseCents(target.lapsed),
  });
}

/** Why a new hold of `points` on this card cannot be made: CARD_NOT_FOUND, CARD_BLOCKED, INSUFFICIENT_FUNDS. */
export function holdRefusal(target: HoldTarget, points: Cents): AppError | null {
  if (!target.card_id || !target.account_id) return new AppError('CARD_NOT_FOUND');
  if (target.card_status !== 'active') return new AppError('CARD_BLOCKED');
  if (availableFor(target) < points) return new AppError('INSUFFICIENT_FUNDS');
  return null;
}

/**
 * A hold that fits only once the account's lapsed holds are voided: their points are still in
 * `held_balance`, which may never pass the balance (accounts_available_not_negative).
 */
export function needsLapsedVoided(target: HoldTarget, points: Cents): boolean {
  return parseCents(target.balance!) - parseCents(target.held_balance!) < points;
}

/** What settles a hold: a capture of some points (all that is held when null), or a release. */
export type Settlement = { kind: 'capture'; points: Cents | null } | { kind: 'release' };

/** Expired from the moment its time passed, whether or not the sweeper has voided it since (issue 15.5). */
export function holdExpired(hold: Pick<LockedHold, 'status' | 'lapsed' | 'reason'>): boolean {
  return (hold.status === 'active' && hold.lapsed) || (hold.status === 'voided' && hold.reason === 'Expired');
}

/** Why this POS cannot capture or release the hold (POS-API.md "Capture"), in this order; null when it can. */
export function settleRefusal(
  hold: LockedHold | undefined,
  posId: string,
  settlement: Settlement,
): AppError | null {
  if (!hold) return new AppError('HOLD_NOT_FOUND');
  if (hold.pos_id !== posId) return new AppError('NO_ACTIVE_HOLD_FOR_POS');
  if (holdExpired(hold)) return new AppError('HOLD_EXPIRED');
  if (hold.status !== 'active') return new AppError('ALREADY_CAPTURED_OR_CLOSED');
  if (settlement.kind === 'release') return null;
  if (hold.card_status !== 'active') return new AppError('CARD_BLOCKED');
  if (settlement.points !== null && settlement.points > parseCents(hold.held)) {
    return new AppError('INSUFFICIENT_FUNDS', `Capture exceeds the held points (${hold.held})`);
  }
  return null;
}

/** The closed hold's reason: "Captured", or for part of it "Captured x of y held; z released". */
export function captureReason(held: Cents, captured: Cents): string {
  if (captured === held) return 'Captured';
  return `Captured ${centsText(captured)} of ${centsText(held)} held; ${centsText(held - captured)} released`;
}
