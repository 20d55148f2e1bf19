import { erasedClientId } from '@loyalty/contracts';
import { describe, expect, it } from 'vitest';
import { MAX_BALANCE_CENTS } from '../../lib/money';
import { adjustmentRefusal } from './admin-adjustment';

const ID = '0b7e6f8a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const account = (balance: string, clientId = 'C-1') => ({
  id: ID,
  client_id: clientId,
  balance,
  held_balance: '0.00',
});

describe('admin adjustment refusal', () => {
  it('refuses a missing account, then a balance past numeric(14, 2); otherwise none', () => {
    expect(adjustmentRefusal(undefined, 1n)?.code).toBe('ACCOUNT_NOT_FOUND');
    expect(adjustmentRefusal(account('10.00'), 100n)).toBeNull();
    const top = account('999999999999.99');
    expect(MAX_BALANCE_CENTS).toBe(99999999999999n);
    expect(adjustmentRefusal(top, 0n)).toBeNull();
    expect(adjustmentRefusal(top, 1n)?.code).toBe('BALANCE_LIMIT_EXCEEDED');
  });

  it('refuses an erased account, whatever the digits its erased client ID took', () => {
    for (const digits of [8, 12, 16, 32]) {
      expect(adjustmentRefusal(account('10.00', erasedClientId(ID, digits)), 1n)?.code).toBe(
        'ACCOUNT_ERASED',
      );
    }
    // Another account's erased ID typed as a client ID is not an erasure of this one.
    expect(adjustmentRefusal(account('10.00', erasedClientId(ID.replace('0b', 'ff'))), 1n)).toBeNull();
  });
});
