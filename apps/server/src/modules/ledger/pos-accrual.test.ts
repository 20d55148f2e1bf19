import { describe, expect, it } from 'vitest';
import { centsText, MAX_BALANCE_CENTS } from '../../lib/money';
import type { AccrualContext } from './accrual.repository';
import { decideAccrual } from './pos-accrual';

const context = (values: Partial<AccrualContext> = {}): AccrualContext => ({
  card_id: 'card',
  card_status: 'active',
  account_id: 'account',
  balance: '10.00',
  ruleset_version: 3,
  percent: '10.00',
  excluded: ['TOBACCO'],
  earning_rules: null,
  time_zone: null,
  pos_name: 'Till 1',
  pos_address: null,
  at: new Date('2026-11-23T12:00:00Z'),
  ...values,
});

const items = [
  { sku: 'MILK', category: null, quantity: 2, price: 1.99, discount: 0 },
  { sku: 'TOBACCO', category: null, quantity: 1, price: 12, discount: 0 },
];

const refusalOf = (c: AccrualContext, lines = items) => {
  try {
    decideAccrual(c, { posId: 'pos', items: lines });
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('decideAccrual', () => {
  it('earns the percent on each line, 0 on excluded SKUs, and says the balance it leads to', () => {
    const { computed, balanceAfter } = decideAccrual(context(), { posId: 'pos', items });
    expect(computed.lines.map((l) => l.bonusCents)).toEqual([40n, 0n]);
    expect(computed.pointsCents).toBe(40n);
    expect(balanceAfter).toBe(1040n);
  });

  it('refuses in order: no card, a card not active, no ruleset in force', () => {
    const none = { card_id: null, account_id: null, card_status: null, balance: null };
    expect(refusalOf(context({ ...none, ruleset_version: null, percent: null }))).toBe('CARD_NOT_FOUND');
    expect(refusalOf(context({ card_status: 'blocked', ruleset_version: null, percent: null }))).toBe(
      'CARD_BLOCKED',
    );
    expect(refusalOf(context({ ruleset_version: null, percent: null, excluded: null }))).toBe(
      'NO_ACTIVE_RULESET',
    );
  });

  it('refuses points that would take the balance past its limit, and lets it reach the limit exactly', () => {
    expect(refusalOf(context({ balance: centsText(MAX_BALANCE_CENTS - 40n) }))).toBeNull();
    expect(refusalOf(context({ balance: centsText(MAX_BALANCE_CENTS - 39n) }))).toBe(
      'BALANCE_LIMIT_EXCEEDED',
    );
  });
});
