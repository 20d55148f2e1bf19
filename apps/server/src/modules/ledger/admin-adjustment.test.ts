import { describe, expect, it } from 'vitest';
import { MAX_BALANCE_CENTS } from '../../lib/money';
import { adjustmentRefusal } from './admin-adjustment';

const account = (balance: string) => ({ id: 'a', balance, held_balance: '0.00' });

describe('admin adjustment refusal', () => {
  it('refuses a missing account, then a balance past numeric(14, 2); otherwise none', () => {
    expect(adjustmentRefusal(undefined, 1n)?.code).toBe('ACCOUNT_NOT_FOUND');
    expect(adjustmentRefusal(account('10.00'), 100n)).toBeNull();
    const top = account('999999999999.99');
    expect(MAX_BALANCE_CENTS).toBe(99999999999999n);
    expect(adjustmentRefusal(top, 0n)).toBeNull();
    expect(adjustmentRefusal(top, 1n)?.code).toBe('BALANCE_LIMIT_EXCEEDED');
  });
});
