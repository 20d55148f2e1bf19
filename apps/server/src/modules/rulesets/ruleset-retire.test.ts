import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { ledgerIsSound, verifyLedger } from '../ledger/verify-ledger';
import { createCard, createPosKey, opId, till } from '../pos/pos.fixtures';

const ctx = await createTestContext();
const { app } = ctx;
const db = ctx.database.db;

const create = (payload: unknown, token = ctx.tokens.MANAGER) =>
  app.inject({ method: 'POST', url: '/api/v1/rulesets', headers: bearer(token), payload: payload as object });
const retire = (id: string, token = ctx.tokens.ADMIN) =>
  app.inject({ method: 'POST', url: `/api/v1/rulesets/${id}/retire`, headers: bearer(token) });
const list = (query = '') =>
  app.inject({ url: `/api/v1/rulesets${query}`, headers: bearer(ctx.tokens.VIEWER) });
const past = new Date(Date.now() - 86_400_000).toISOString();
const receipt = { receiptId: 'R-1', items: [{ sku: 'MILK', quantity: 1, price: 100 }] };

describe('ruleset versions are bounded (issue 15.3)', () => {
  it.each([
    [9007199254740991, 'Version must be at most 2147483647'],
    [2147483648, 'Version must be at most 2147483647'],
    [-1, 'Version must be at least 1'],
  ])('refuses version %d with a 400', async (version, message) => {
    const res = await create({ version, config: { percent: 1 }, activeFrom: past });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'version', message }] });
  });

  it('accepts the largest 32-bit version, and the automatic version (epoch seconds) fits the bound', async () => {
    const res = await create({ version: 2147483647, config: { percent: 1 }, activeFrom: '' });
    expect(res.statusCode).toBe(201);
    const auto = await create({ config: { percent: 1 } });
    expect(auto.statusCode).toBe(201);
    expect(auto.json().version).toBeLessThanOrEqual(2147483647);
  });
});

describe('accepted timestamps are bounded to 2000-01-01 … 2100-01-01 (issue 15.4)', () => {
  it.each(['0000-01-01T00:00:00Z', '1999-12-31T23:59:59Z', '2100-01-01T00:00:00Z', '9999-12-31T23:59:59Z'])(
    'activeFrom %s is a 400 naming the field, not a 500',
    async (activeFrom) => {
      const res = await create({ config: { percent: 1 }, activeFrom });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'activeFrom', message: 'must be between 2000-01-01 and 2100-01-01' }],
      });
    },
  );

  it('the bounds themselves: 2000-01-01 is accepted, with an offset too', async () => {
    const res = await create({ version: 1, config: { percent: 1 }, activeFrom: '2000-01-01T01:00:00+01:00' });
    expect(res.statusCode).toBe(201);
    expect(res.json().activeFrom).toBe('2000-01-01T00:00:00.000Z');
  });

  it.each(['2025-01-01T00:00:00+16:00', '2025-01-01T00:00:00-16:00', '2025-01-01T00:00:00+14:30'])(
    'activeFrom %s (an offset no zone has, past what PostgreSQL takes) is a 400, not a 500',
    async (activeFrom) => {
      const res = await create({ config: { percent: 1 }, activeFrom });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'activeFrom', message: 'must have a time zone offset between -14:00 and +14:00' }],
      });
    },
  );

  it('offsets of real zones are accepted, to +14:00 and -12:00', async () => {
    for (const [version, activeFrom] of [
      [2, '2025-01-01T00:00:00+14:00'],
      [3, '2025-01-01T00:00:00-12:00'],
      [4, '2025-01-01T00:00:00+05:45'],
    ] as const) {
      const res = await create({ version, config: { percent: 1 }, activeFrom });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('a backtest range and an offline purchase with such an offset are 400s too', async () => {
    const ruleset = (await create({ version: 5, config: { percent: 1 }, activeFrom: past })).json();
    const backtest = await app.inject({
      method: 'POST',
      url: `/api/v1/rulesets/${ruleset.id}/backtest`,
      headers: bearer(ctx.tokens.MANAGER),
      payload: { from: '2025-01-01T00:00:00+16:00', to: '2025-02-01T00:00:00Z' },
    });
    expect(backtest.statusCode, backtest.body).toBe(400);
    const pos = till(ctx, (await createPosKey(ctx)).apiKey);
    const card = await createCard(db);
    const accrual = await pos.accrue({
      operationId: opId('acc'),
      cardNumber: card.number,
      receipt: {
        ...receipt,
        purchasedAt: new Date(Date.now() - 3_600_000).toISOString().replace('Z', '+16:00'),
      },
    });
    expect(accrual.statusCode, accrual.body).toBe(400);
    expect(accrual.json().details[0].field).toBe('receipt.purchasedAt');
  });

  it('analytics ranges too', async () => {
    const res = await app.inject({
      url: '/api/v1/analytics/operations?from=0000-01-01T00:00:00Z&to=2025-01-02T00:00:00Z',
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('querystring.from');
  });
});

describe('retiring a ruleset (issue 15.3)', () => {
  it('a ruleset stuck in force with the top version is retired by an ADMIN, audited, and never in force again', async () => {
    const pos = till(ctx, (await createPosKey(ctx)).apiKey);
    const card = await createCard(db);
    const low = (await create({ version: 100, config: { percent: 10 }, activeFrom: past })).json();
    const stuck = (await create({ version: 2147483646, config: { percent: 90 }, activeFrom: past })).json();
    expect(stuck).toMatchObject({ inForce: true, status: 'Active', retiredAt: null });
    expect((await pos.preview({ cardNumber: card.number, receipt })).json().points).toBe(90);

    const res = await retire(stuck.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: stuck.id,
      version: 2147483646,
      status: 'Retired',
      inForce: false,
      retiredBy: 'admin',
    });
    expect(res.json().retiredAt).toMatch(/Z$/);

    // The next eligible version is in force, for the console and for the POS (preview and accrual).
    const all = (await list('?size=200')).json().content as { id: string; inForce: boolean }[];
    expect(all.filter((r) => r.inForce).map((r) => r.id)).toEqual([low.id]);
    expect((await pos.preview({ cardNumber: card.number, receipt })).json().points).toBe(10);
    const accrued = await pos.accrue({ operationId: opId(), cardNumber: card.number, receipt });
    expect(accrued.statusCode).toBe(201);
    expect(accrued.json().points).toBe(10);

    // Kept for history: listed, filterable, and excluded from Active.
    expect((await list('?status=retired')).json().content.map((r: { id: string }) => r.id)).toEqual([
      stuck.id,
    ]);
    const active = (await list('?status=Active&size=200')).json().content.map((r: { id: string }) => r.id);
    expect(active).not.toContain(stuck.id);

    const audit = await app.inject({
      url: `/api/v1/audit?targetType=ruleset&targetId=${stuck.id}`,
      headers: bearer(ctx.tokens.ADMIN),
    });
    expect(audit.json().content[0]).toMatchObject({
      username: 'admin',
      message: 'Retired ruleset version 2147483646 (it was in force)',
      source: { status: 'Active', inForce: true },
      dest: { status: 'Retired', inForce: false },
    });

    // Retiring every eligible one leaves none in force.
    const stillActive = (await list('?status=Active&size=200')).json().content as { id: string }[];
    for (const r of stillActive) expect((await retire(r.id)).statusCode).toBe(200);
    const refused = await pos.preview({ cardNumber: card.number, receipt });
    expect(refused.json().code).toBe('NO_ACTIVE_RULESET');
  });

  it('retiring twice is a 409; unknown a 404; MANAGER and VIEWER get 403', async () => {
    const r = (await create({ version: 300, config: { percent: 1 }, activeFrom: '' })).json();
    expect((await retire(r.id, ctx.tokens.MANAGER)).statusCode).toBe(403);
    expect((await retire(r.id, ctx.tokens.VIEWER)).statusCode).toBe(403);
    expect((await retire(r.id)).json()).toMatchObject({ status: 'Retired', inForce: false });
    const again = await retire(r.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'RULESET_ALREADY_RETIRED' });
    const unknown = await retire('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('RULESET_NOT_FOUND');
  });

  it('leaves the ledger exact', async () => {
    expect(ledgerIsSound(await verifyLedger(db))).toBe(true);
  });
});
