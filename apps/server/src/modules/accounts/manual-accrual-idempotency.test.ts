import { describe, expect, it } from 'vitest';
import { bearer, createTestContext, PASSWORD } from '../../../test/helper';
import { deletedWhileWaiting } from '../pos/pos.fixtures';

// Issue 15.7: manual accrual with an Idempotency-Key.
const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;

const URL = '/api/v1/admin/operations/manual-accrual';
const accrue = (payload: unknown, key?: string, token = ctx.tokens.MANAGER) =>
  app.inject({
    method: 'POST',
    url: URL,
    headers: { ...bearer(token), ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: payload as object,
  });
const newAccount = async (clientId: string) =>
  (
    await app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: bearer(ctx.tokens.ADMIN),
      payload: { clientId },
    })
  ).json().id as string;
const balanceOf = async (id: string) =>
  (await db.selectFrom('accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance;
const adjustmentsOf = (accountId: string) =>
  db.selectFrom('operations').select('points').where('account_id', '=', accountId).execute();
const auditsOf = (accountId: string) =>
  db.selectFrom('audit_log').select('id').where('target_id', '=', accountId).execute();

describe('manual accrual with an Idempotency-Key', () => {
  // PostgreSQL only: the deletion commits while the accrual waits for the user's row (PGlite runs one at a time).
  it.runIf(ctx.database.kind === 'postgres')(
    'a user deleted while their request runs gets 401, not a 500, and nothing is booked',
    async () => {
      const accountId = await newAccount('IDEM-GONE');
      const user = await app.inject({
        method: 'POST',
        url: '/auth/api/v1/users',
        headers: bearer(ctx.tokens.ADMIN),
        payload: { username: 'leaving', password: PASSWORD, role: 'MANAGER' },
      });
      const id = user.json().id as string;
      const token = (await ctx.login('leaving')).json().token;
      // Let in, the accrual claims its key, which names the user: it waits for the user's row.
      const res = await deletedWhileWaiting(db, { table: 'users', id }, () =>
        accrue({ accountId, points: 3 }, 'key-gone', token),
      );
      // Before: the claim's foreign key to the deleted user failed, a 500 INTERNAL_ERROR.
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      expect(await balanceOf(accountId)).toBe('0.00');
    },
  );

  it('the same key and body get the first answer again, and the points are booked once', async () => {
    const accountId = await newAccount('IDEM-1');
    const body = { accountId, points: 7.25, reason: 'Goodwill' };
    const first = await accrue(body, 'key-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Key order and surrounding spaces of the reason do not make it another request.
    const again = await accrue({ reason: '  Goodwill ', points: 7.25, accountId }, 'key-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await balanceOf(accountId)).toBe('7.25');
    expect(await adjustmentsOf(accountId)).toHaveLength(1);
    expect(await auditsOf(accountId)).toHaveLength(2); // the account's creation and one accrual
  });

  it('the same key with another body is 409 IDEMPOTENCY_KEY_REUSED and books nothing', async () => {
    const accountId = await newAccount('IDEM-2');
    expect((await accrue({ accountId, points: 1 }, 'key-2')).statusCode).toBe(201);
    for (const other of [
      { accountId, points: 2 },
      { accountId, points: 1, reason: 'other' },
    ]) {
      const res = await accrue(other, 'key-2');
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    }
    expect(await balanceOf(accountId)).toBe('1.00');
  });

  it('keys are per user: another user with the same key books their own accrual', async () => {
    const accountId = await newAccount('IDEM-3');
    const body = { accountId, points: 3 };
    expect((await accrue(body, 'shared-key')).statusCode).toBe(201);
    const admin = await accrue(body, 'shared-key', ctx.tokens.ADMIN);
    expect(admin.statusCode).toBe(201);
    expect(admin.headers['idempotent-replayed']).toBeUndefined();
    expect(await balanceOf(accountId)).toBe('6.00');
  });

  it('concurrent requests with one key: exactly one accrual, every answer the same', async () => {
    const accountId = await newAccount('IDEM-4');
    const body = { accountId, points: 11.11 };
    const answers = await Promise.all(Array.from({ length: 6 }, () => accrue(body, 'key-race')));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await balanceOf(accountId)).toBe('11.11');
    expect(await adjustmentsOf(accountId)).toHaveLength(1);
  });

  it('a refusal is the first answer too, and is replayed', async () => {
    const body = { accountId: '00000000-0000-4000-8000-000000000000', points: 5 };
    const first = await accrue(body, 'key-404');
    expect(first.statusCode).toBe(404);
    expect(first.json().code).toBe('ACCOUNT_NOT_FOUND');
    const again = await accrue(body, 'key-404');
    expect(again.statusCode).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it.each([['has space'], ['x'.repeat(256)], ['']])('rejects the key %j with a 400', async (key) => {
    const accountId = await newAccount(`IDEM-BAD-${key.length}`);
    const res = await accrue({ accountId, points: 1 }, key);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(await balanceOf(accountId)).toBe('0.00');
  });
});
