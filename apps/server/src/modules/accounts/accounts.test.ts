import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

// The list tests set balances directly (display and sort), with no operations behind them: no ledger check.
const ctx = await createTestContext({}, { verifyLedger: false });
const { app } = ctx;
const { db } = ctx.database;

const create = (payload: unknown, token = ctx.tokens.MANAGER) =>
  app.inject({ method: 'POST', url: '/api/v1/accounts', headers: bearer(token), payload: payload as object });
const list = (query = '', token = ctx.tokens.VIEWER) =>
  app.inject({ url: `/api/v1/accounts${query}`, headers: bearer(token) });
const clientIds = (res: { json(): { content: Array<{ clientId: string }> } }) =>
  res.json().content.map((a) => a.clientId);

describe('accounts API', () => {
  it('creates an account with a trimmed client ID, zero balances and no card', async () => {
    const res = await create({ clientId: '  CL-0001 ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      clientId: 'CL-0001',
      activeCardNumber: null,
      balance: 0,
      heldBalance: 0,
    });
    const got = await app.inject({
      url: `/api/v1/accounts/${res.json().id}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(res.json());
  });

  it('a client ID taken in any case is a 409', async () => {
    for (const clientId of ['CL-0001', 'cl-0001']) {
      const res = await create({ clientId });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'CLIENT_ID_TAKEN',
        message: `An account with client ID '${clientId}' already exists`,
      });
    }
  });

  it('concurrent creates of one client ID: exactly one succeeds', async () => {
    const results = await Promise.all([1, 2, 3].map(() => create({ clientId: 'RACE-1' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    [{ clientId: '   ' }, 'Client ID is required'],
    [{}, 'Client ID is required'],
    // Shows nothing in the console, though not white space to trim().
    [{ clientId: '\u200b' }, 'Client ID is required'],
    [{ clientId: ' \u2060\ufeff ' }, 'Client ID is required'],
    [{ clientId: 'a\tb' }, 'Client ID must not contain tabs, line breaks or other control characters'],
    [{ clientId: 'a\nb' }, 'Client ID must not contain tabs, line breaks or other control characters'],
    [{ clientId: 42 }, 'clientId'],
    [{ clientId: 'x'.repeat(101) }, 'clientId'],
  ])('rejects %j with a 400', async (payload, message) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json())).toContain(message);
  });

  it('a client ID over 100 characters is answered as too long, not as missing', async () => {
    const res = await create({ clientId: 'x'.repeat(101) });
    expect(res.statusCode).toBe(400);
    const body = JSON.stringify(res.json());
    expect(body).toContain('Client ID must be at most 100 characters');
    expect(body).not.toContain('required');
  });

  it('an unknown account is a 404, a malformed id a 400', async () => {
    const unknown = await list('/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ACCOUNT_NOT_FOUND');
    expect((await list('/123')).statusCode).toBe(400);
  });

  it('lists newest first with exact totals, searches client IDs and sorts', async () => {
    // Upper case only: the order is then the same under any database collation.
    for (const clientId of ['ALPHA-7', 'BETA-17', 'GAMMA-27']) await create({ clientId });
    const [rich] = await db.selectFrom('accounts').select('id').where('client_id', '=', 'BETA-17').execute();
    await db
      .updateTable('accounts')
      .set({ balance: '250.50', held_balance: '20.25' })
      .where('id', '=', rich!.id)
      .execute();
    await db
      .insertInto('cards')
      .values([
        {
          number: '4000000000000002',
          account_id: rich!.id,
          status: 'active',
          created_at: '2024-01-01T00:00:00Z',
        },
        {
          number: '4000000000000010',
          account_id: rich!.id,
          status: 'active',
          created_at: '2024-02-01T00:00:00Z',
        },
        {
          number: '4000000000000028',
          account_id: rich!.id,
          status: 'blocked',
          created_at: '2024-03-01T00:00:00Z',
        },
      ])
      .execute();

    const page = (await list('?size=2')).json();
    expect(page).toMatchObject({ totalElements: 5, totalPages: 3, page: 0, size: 2 });
    expect(page.content.map((a: { clientId: string }) => a.clientId)).toEqual(['GAMMA-27', 'BETA-17']);
    expect(page.content[1]).toMatchObject({
      balance: 250.5,
      heldBalance: 20.25,
      activeCardNumber: '4000000000000010',
    });

    expect(clientIds(await list('?search=A-'))).toEqual(['GAMMA-27', 'BETA-17', 'ALPHA-7']);
    const search = (await list('?search=7&size=1')).json();
    expect(search.totalElements).toBe(3);
    expect(clientIds(await list('?search=%25'))).toEqual([]);
    expect(clientIds(await list('?sort=clientId,asc'))).toEqual([
      'ALPHA-7',
      'BETA-17',
      'CL-0001',
      'GAMMA-27',
      'RACE-1',
    ]);
    expect(clientIds(await list('?sort=balance,desc&size=1'))).toEqual(['BETA-17']);
    expect(clientIds(await list('?sort=createdAt,asc&size=1'))).toEqual(['CL-0001']);
    expect((await list('?sort=activeCardNumber')).statusCode).toBe(400);
  });

  it('one- and two-character searches are exact (search counters), in any case', async () => {
    const accounts = await db.selectFrom('accounts').select('client_id').execute();
    for (const text of ['a', 'A-', '7', '-2', 'q', '%']) {
      const expected = accounts.filter((a) => a.client_id.toLowerCase().includes(text.toLowerCase())).length;
      const res = (await list(`?search=${encodeURIComponent(text)}&size=200`)).json();
      expect(res.totalElements).toBe(expected);
      expect(res.content).toHaveLength(expected);
    }
    expect((await list('?search=q')).json()).toMatchObject({ totalElements: 0, content: [] });
  });

  it('a one- or two-character search finds a client ID JavaScript lowercases otherwise (İ)', async () => {
    // 'İ'.toLowerCase() is 'i̇' (two code points); the search counters hold the database's lower().
    expect((await create({ clientId: 'İSTANBUL-3' })).statusCode).toBe(201);
    for (const text of ['İ', 'İS', 'İST']) {
      const res = (await list(`?search=${encodeURIComponent(text)}`)).json();
      expect(res, text).toMatchObject({ totalElements: 1, content: [{ clientId: 'İSTANBUL-3' }] });
    }
  });

  it('a VIEWER may read but not create', async () => {
    const res = await create({ clientId: 'VIEW-1' }, ctx.tokens.VIEWER);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    expect((await create({ clientId: 'ADMIN-1' }, ctx.tokens.ADMIN)).statusCode).toBe(201);
  });

  it('audits a creation', async () => {
    const made = (await create({ clientId: 'AUDIT-1' })).json();
    const res = await app.inject({
      url: `/api/v1/audit?targetType=account&targetId=${made.id}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(res.json().content).toEqual([
      expect.objectContaining({
        username: 'manager',
        message: "Created account for client 'AUDIT-1'",
        source: null,
        dest: made,
      }),
    ]);
  });
});
