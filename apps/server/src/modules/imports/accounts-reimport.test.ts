import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { csv, importer } from './imports.fixtures';

// PROGRAMME-API.md §4 "Import of members": importing the same row again is unchanged, also once the
// opening points' expiresAt has passed. The server's clock is moved with fake timers (Date only), no waiting.
const ctx = await createTestContext();
const post = importer(ctx);
const HOUR = 3_600_000;

afterEach(() => vi.useRealTimers());

const later = (ms: number) => vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ms });

describe('a members file imported again after its expiresAt has passed', () => {
  const expiresAt = new Date(Date.now() + HOUR).toISOString();
  const file = csv('clientId,points,expiresAt', `olga,10,${expiresAt}`, 'pete,5,');

  it('is unchanged, with and without skipInvalid, and as a dry run', async () => {
    const first = await post('accounts', file);
    expect(first.json()).toMatchObject({ rows: 2, created: 2, unchanged: 0, failed: 0 });
    later(2 * HOUR);
    for (const query of ['', 'skipInvalid=true', 'dryRun=true']) {
      const again = await post('accounts', file, { query });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json(), query).toMatchObject({ rows: 2, created: 0, unchanged: 2, failed: 0, errors: [] });
    }
  });

  it('a past expiresAt is still refused on a row that would create an account', async () => {
    later(2 * HOUR);
    const body = csv('clientId,points,expiresAt', `olga,10,${expiresAt}`, `quinn,3,${expiresAt}`);
    const refused = await post('accounts', body);
    expect(refused.json()).toMatchObject({ created: 0, unchanged: 0, failed: 1 });
    expect(refused.json().errors).toEqual([
      { line: 3, code: 'VALIDATION_ERROR', message: 'expiresAt: must be in the future' },
    ]);
    const skipped = await post('accounts', body, { query: 'skipInvalid=true' });
    expect(skipped.json()).toMatchObject({ created: 0, unchanged: 1, failed: 1 });
    // A later row of the same client ID is not held up by the refused one (as with any invalid row).
    const fixed = await post(
      'accounts',
      csv('clientId,points,expiresAt', `quinn,3,${expiresAt}`, 'quinn,3,2099-01-01T00:00:00Z'),
      { query: 'skipInvalid=true' },
    );
    expect(fixed.json()).toMatchObject({ created: 1, failed: 1 });
  });

  it('a changed row of an existing account is still ACCOUNT_EXISTS, whatever its date', async () => {
    later(2 * HOUR);
    const res = await post('accounts', csv('clientId,points,expiresAt', `olga,11,${expiresAt}`));
    expect(res.json()).toMatchObject({ created: 0, unchanged: 0, failed: 1 });
    expect(res.json().errors).toEqual([expect.objectContaining({ line: 2, code: 'ACCOUNT_EXISTS' })]);
  });
});
