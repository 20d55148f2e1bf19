import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;

const URL = '/api/v1/admin/operations/manual-accrual';
const accrue = (payload: unknown, token = ctx.tokens.MANAGER) =>
  app.inject({ method: 'POST', url: URL, headers: bearer(token), payload: payload as object });
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

describe('manual accrual', () => {
  it('writes a completed adjustment on the active card and adds to the balance, in one go', async () => {
    const accountId = await newAccount('ACC-1');
    const card = (
      await app.inject({
        method: 'POST',
        url: `/api/v1/cards/issue/${accountId}`,
        headers: bearer(ctx.tokens.ADMIN),
      })
    ).json();
    const res = await accrue({ accountId, points: 12.5, reason: '  Goodwill  ' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.balance).toBe(12.5);
    expect(body.operation).toMatchObject({
      operationId: null,
      type: 'adjustment',
      status: 'completed',
      points: '12.50',
      accountId,
      cardNumber: card.number,
      posId: null,
      posName: null,
      meta: { reason: 'Goodwill' },
    });
    const row = await db
      .selectFrom('operations')
      .selectAll()
      .where('id', '=', body.operation.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ created_by: 'manager', card_id: card.id, points: '12.50' });

    const again = await accrue({ accountId, points: 0.01 });
    expect(again.json()).toMatchObject({ balance: 12.51, operation: { points: '0.01', meta: {} } });
    expect(await balanceOf(accountId)).toBe('12.51');
  });

  it('an account without a card gets an operation without a card', async () => {
    const accountId = await newAccount('ACC-NOCARD');
    const res = await accrue({ accountId, points: 3 });
    expect(res.json().operation.cardNumber).toBeNull();
  });

  it('two concurrent accruals both land: the balance is their sum', async () => {
    const accountId = await newAccount('ACC-RACE');
    const results = await Promise.all([
      accrue({ accountId, points: 10.1 }),
      accrue({ accountId, points: 20.2 }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(await balanceOf(accountId)).toBe('30.30');
    // Whichever ran first saw only its own points; the second saw both.
    const balances = results.map((r) => r.json().balance as number).sort((a, b) => a - b);
    expect([10.1, 20.2]).toContain(balances[0]);
    expect(balances[1]).toBe(30.3);
    const ops = await db
      .selectFrom('operations')
      .select('points')
      .where('account_id', '=', accountId)
      .execute();
    expect(ops.map((o) => o.points).sort()).toEqual(['10.10', '20.20']);
  });

  it.each([
    [{ points: 0 }, 'Please enter a valid points amount'],
    [{ points: -5 }, 'Please enter a valid points amount'],
    // Taken for a multiple of 0.01 by a float-safe check, and 0.00 once in cents.
    [{ points: 1e-18 }, 'Please enter a valid points amount'],
    [{ points: 5e-324 }, 'Please enter a valid points amount'],
    [{ points: 1.005 }, 'Points may have at most 2 decimal places'],
    [{ points: '5' }, 'points'],
    [{ points: 2_000_000_000 }, 'Points must be at most 1,000,000,000'],
    [{ points: 5, accountId: 'nope' }, 'accountId'],
    [{ accountId: undefined, points: 5 }, 'accountId'],
  ])('rejects %j with a 400', async (patch, message) => {
    const accountId = '00000000-0000-4000-8000-000000000000';
    const res = await accrue({ accountId, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json())).toContain(message);
  });

  it('an unknown account is a 404 and changes nothing', async () => {
    const res = await accrue({ accountId: '00000000-0000-4000-8000-000000000000', points: 5 });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ACCOUNT_NOT_FOUND');
  });

  it('a VIEWER may not add points', async () => {
    const accountId = await newAccount('ACC-VIEW');
    const res = await accrue({ accountId, points: 5 }, ctx.tokens.VIEWER);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    expect(await balanceOf(accountId)).toBe('0.00');
    expect((await accrue({ accountId, points: 5 }, ctx.tokens.ADMIN)).statusCode).toBe(201);
  });

  it('audits the accrual against the account with the balance before and after', async () => {
    const accountId = await newAccount('ACC-AUDIT');
    await accrue({ accountId, points: 4 });
    const op = (await accrue({ accountId, points: 6.5, reason: 'Birthday' })).json().operation;
    const res = await app.inject({
      url: `/api/v1/audit?targetType=account&targetId=${accountId}&size=1`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(res.json().content[0]).toMatchObject({
      username: 'manager',
      message: 'Added 6.50 points to account: Birthday',
      source: { balance: 4 },
      dest: { balance: 10.5, operationId: op.id, points: 6.5 },
    });
  });
});
