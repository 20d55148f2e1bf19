import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../test/csv-parse';
import { bearer, createTestContext } from '../../../test/helper';

const ctx = await createTestContext();
const { db } = ctx.database;
const get = (query: string, token = ctx.tokens.MANAGER) =>
  ctx.app.inject({ url: `/api/v1/reports/points-flow?${query}`, headers: bearer(token) });

// Through the console's own write: a manual accrual (an `adjusted` credit today), so the ledger holds.
const [account] = await db.insertInto('accounts').values({ client_id: 'FLOW-1' }).returning('id').execute();
const today = new Date().toISOString().slice(0, 10);
const accrued = await ctx.app.inject({
  method: 'POST',
  url: '/api/v1/admin/operations/manual-accrual',
  headers: bearer(ctx.tokens.ADMIN),
  payload: { accountId: account!.id, points: 12.5, reason: 'Goodwill' },
});

describe('GET /api/v1/reports/points-flow', () => {
  it('rolls today forward from the opening to Σ balances', async () => {
    expect(accrued.statusCode, accrued.body).toBe(201);
    const res = await get(`from=${today}&to=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.rows).toEqual([
      {
        period: today,
        opening: 0,
        earned: 0,
        redeemed: 0,
        returned: 0,
        expired: 0,
        adjusted: 12.5,
        closing: 12.5,
      },
    ]);
    expect(body.totals).toMatchObject({ opening: 0, adjusted: 12.5, closing: 12.5 });
    expect(body.breakageRate).toBe(0);
    expect(body.redemptionRate).toBe(0);
    expect(body.outstanding.total).toBe(12.5);
  });

  it('groups by month, one row per month the range touches, and rates are null without credits', async () => {
    const body = (await get('from=2024-01-30&to=2024-03-01&groupBy=month')).json();
    expect(body.rows.map((r: { period: string }) => r.period)).toEqual(['2024-01', '2024-02', '2024-03']);
    expect(body.breakageRate).toBeNull();
    expect(body.redemptionRate).toBeNull();
  });

  it('format=csv answers the rows with a header of the field names', async () => {
    const res = await get(`from=${today}&to=${today}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="points-flow-/);
    expect(parseCsv(res.body)).toEqual([
      ['period', 'opening', 'earned', 'redeemed', 'returned', 'expired', 'adjusted', 'closing'],
      [today, '0', '0', '0', '0', '0', '12.5', '12.5'],
    ]);
  });

  it.each([
    ['to=2025-01-01', 'from'],
    ['from=2025-01-01', 'to'],
    ['from=2025-13-01&to=2025-12-01', 'from'],
    ['from=2025-02-30&to=2025-03-01', 'from'],
    ['from=2025-01-01T00:00:00Z&to=2025-01-02', 'from'],
    ['from=2025-01-02&to=2025-01-01', 'to'],
    ['from=2024-01-01&to=2025-03-01', 'to'],
    ['from=1999-12-31&to=2000-01-01', 'from'],
    ['from=2025-01-01&to=2025-01-02&groupBy=week', 'groupBy'],
    ['from=2025-01-01&to=2025-01-02&posId=till-1', 'posId'],
    ['from=2025-01-01&to=2025-01-02&format=xml', 'format'],
  ])('%s is a 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details.map((d: { field: string }) => d.field)).toContain(`querystring.${field}`);
  });

  it('accepts ten years by month; MANAGER and ADMIN only', async () => {
    expect((await get('from=2016-01-01&to=2025-12-31&groupBy=month')).statusCode).toBe(200);
    expect((await get(`from=${today}&to=${today}`, ctx.tokens.ADMIN)).statusCode).toBe(200);
    expect((await get(`from=${today}&to=${today}`, ctx.tokens.VIEWER)).statusCode).toBe(403);
    const anonymous = await ctx.app.inject({ url: `/api/v1/reports/points-flow?from=${today}&to=${today}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('outstanding: pending and expiring within 30 days from the lots, also on the dashboard', async () => {
    const settings = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/settings',
      headers: bearer(ctx.tokens.ADMIN),
      payload: { points: { pending_days: 5, expiry_days: 10 } },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const credit = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      headers: bearer(ctx.tokens.ADMIN),
      payload: { accountId: account!.id, points: 7, reason: 'Pending' },
    });
    expect(credit.statusCode, credit.body).toBe(201);
    const body = (await get(`from=${today}&to=${today}`)).json();
    // Available in 5 days, expiring 10 days later: pending now, and inside the 30-day window.
    expect(body.outstanding).toEqual({ total: 19.5, pending: 7, expiring30Days: 7 });
    const summary = await ctx.app.inject({
      url: '/api/v1/analytics/bonuses-circulation',
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(summary.json().expiring30Days).toBe(7);
  });
});
