import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import {
  captureReason,
  DEFAULT_HOLD_TTL_MINUTES,
  holdExpiry,
  holdRefusal,
  needsLapsedVoided,
  settleRefusal,
} from './hold-rules';
import type { HoldTarget } from './holds.repository';
import type { LockedHold } from './settlements.repository';

const now = new Date('2026-11-23T12:00:00.000Z');

const target = (values: Partial<HoldTarget> = {}): HoldTarget => ({
  card_id: 'card',
  card_status: 'active',
  account_id: 'account',
  balance: '100.00',
  held_balance: '30.00',
  lapsed: '0',
  pending: '0',
  now,
  ttl_minutes: null,
  pos_name: 'Till 1',
  pos_address: null,
  ...values,
});

const codeOf = (error: AppError | null) => error?.code ?? null;

describe('holdRefusal', () => {
  it('refuses a missing card, then a card that is not active, then more than is available', () => {
    expect(codeOf(holdRefusal(target({ card_id: null, account_id: null }), 1n))).toBe('CARD_NOT_FOUND');
    expect(codeOf(holdRefusal(target({ card_status: 'blocked', balance: '0' }), 1n))).toBe('CARD_BLOCKED');
    expect(codeOf(holdRefusal(target({ card_status: 'pending' }), 1n))).toBe('CARD_BLOCKED');
    expect(codeOf(holdRefusal(target(), 7001n))).toBe('INSUFFICIENT_FUNDS');
  });

  it('lets a hold take exactly what is available', () => {
    expect(holdRefusal(target(), 7000n)).toBeNull();
  });

  it('does not let a hold take pending points (available = balance − held − pending)', () => {
    expect(holdRefusal(target({ pending: '25.00' }), 4500n)).toBeNull();
    expect(codeOf(holdRefusal(target({ pending: '25.00' }), 4501n))).toBe('INSUFFICIENT_FUNDS');
    expect(codeOf(holdRefusal(target({ pending: '100.00' }), 1n))).toBe('INSUFFICIENT_FUNDS');
  });

  it('does not count lapsed holds as held, but asks for them to be voided when their points are needed', () => {
    const lapsed = target({ lapsed: '20.00' });
    expect(holdRefusal(lapsed, 9000n)).toBeNull();
    expect(codeOf(holdRefusal(lapsed, 9001n))).toBe('INSUFFICIENT_FUNDS');
    expect(needsLapsedVoided(lapsed, 7000n)).toBe(false);
    expect(needsLapsedVoided(lapsed, 7001n)).toBe(true);
  });
});

describe('holdExpiry', () => {
  it('is holds.ttl_minutes after now, 15 minutes when the setting is unset', () => {
    expect(DEFAULT_HOLD_TTL_MINUTES).toBe(15);
    expect(holdExpiry(now, null).toISOString()).toBe('2026-11-23T12:15:00.000Z');
    expect(holdExpiry(now, 1).toISOString()).toBe('2026-11-23T12:01:00.000Z');
  });
});

const hold = (values: Partial<LockedHold> = {}): LockedHold => ({
  hold_id: 'hold',
  operation_id: 'op-1',
  created_at: now,
  meta: {},
  now,
  pos_name: 'Till 1',
  pos_address: null,
  status: 'active',
  pos_id: 'pos',
  lapsed: false,
  reason: null,
  held: '20.00',
  account_id: 'account',
  card_id: 'card',
  card_number: '4000',
  card_status: 'active',
  balance: '100.00',
  held_balance: '20.00',
  account_lapsed: '0',
  account_pending: '0',
  ...values,
});

const capture = (points: bigint | null) => ({ kind: 'capture' as const, points });
const release = { kind: 'release' as const };

describe('settleRefusal', () => {
  it('lets the POS that made an active hold capture all or part of it, or release it', () => {
    expect(settleRefusal(hold(), 'pos', capture(null))).toBeNull();
    expect(settleRefusal(hold(), 'pos', capture(2000n))).toBeNull();
    expect(settleRefusal(hold(), 'pos', release)).toBeNull();
  });

  it('answers in order: unknown hold, another POS, expired, closed', () => {
    for (const s of [capture(null), release]) {
      expect(codeOf(settleRefusal(undefined, 'pos', s))).toBe('HOLD_NOT_FOUND');
      // Another POS learns nothing more, even about an expired or closed hold.
      expect(codeOf(settleRefusal(hold({ lapsed: true }), 'other', s))).toBe('NO_ACTIVE_HOLD_FOR_POS');
      expect(codeOf(settleRefusal(hold({ lapsed: true }), 'pos', s))).toBe('HOLD_EXPIRED');
      expect(codeOf(settleRefusal(hold({ status: 'applied' }), 'pos', s))).toBe('ALREADY_CAPTURED_OR_CLOSED');
    }
  });

  it('tells a hold voided as expired (by the sweeper) from one released or captured in time', () => {
    const swept = hold({ status: 'voided', reason: 'Expired', lapsed: true });
    expect(codeOf(settleRefusal(swept, 'pos', release))).toBe('HOLD_EXPIRED');
    // Closed in time, and its time has passed since: still closed, not expired.
    const released = hold({ status: 'voided', reason: 'Released', lapsed: true });
    expect(codeOf(settleRefusal(released, 'pos', capture(null)))).toBe('ALREADY_CAPTURED_OR_CLOSED');
    const captured = hold({ status: 'applied', reason: 'Captured', lapsed: true });
    expect(codeOf(settleRefusal(captured, 'pos', release))).toBe('ALREADY_CAPTURED_OR_CLOSED');
  });

  it('refuses a capture on a card blocked since the hold, but not a release', () => {
    const blocked = hold({ card_status: 'blocked' });
    expect(codeOf(settleRefusal(blocked, 'pos', capture(null)))).toBe('CARD_BLOCKED');
    expect(settleRefusal(blocked, 'pos', release)).toBeNull();
  });

  it('refuses to capture more than is held, saying how much is', () => {
    const refused = settleRefusal(hold(), 'pos', capture(2001n));
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: 'Capture exceeds the held points (20.00)',
    });
  });
});

describe('captureReason', () => {
  it('says "Captured" for the whole hold, and what was released for part of it', () => {
    expect(captureReason(2000n, 2000n)).toBe('Captured');
    expect(captureReason(2000n, 1250n)).toBe('Captured 12.50 of 20.00 held; 7.50 released');
    expect(captureReason(2000n, 1n)).toBe('Captured 0.01 of 20.00 held; 19.99 released');
  });
});
