import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { insertAccount, insertCard, insertOperation } from './analytics-test-data';

// The analytics tests seed raw accounts and operations for the reads, not ledger-true: no ledger check.
const ctx = await createTestContext({}, { verifyLedger: false });
const { app } = ctx;
const db = ctx.database.db;

const get = async (path: string, token = ctx.tokens.VIEWER) => {
  const res = await app.inject({ url: `/api/v1/analytics/${path}`, headers: bearer(token) });
  return { status: res.statusCode, body: res.json() };
};

const counts = (points: Array<{ count: number }>) => points.map((p) => p.count);
const stamps = (points: Array<{ timestamp: string }>) => points.map((p) => p.timestamp);

describe('analytics buckets', () => {
  it('zero-fills every hourly bucket of a 24 h range, oldest first, hourly by default', async () => {
    const { status, body } = await get('operations?from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z');
    expect(status).toBe(200);
    expect(body.operationsCount).toHaveLength(24);
    expect(body.operationsCount[0]).toEqual({ timestamp: '2024-01-01T00:00:00.000Z', count: 0 });
    expect(body.operationsCount[23].timestamp).toBe('2024-01-01T23:00:00.000Z');
    expect(body.operationsVolume[5]).toEqual({ timestamp: '2024-01-01T05:00:00.000Z', amount: 0 });
  });

  it('defaults to hour up to 48 h and to day beyond; an explicit groupBy wins', async () => {
    const h48 = await get('cards?from=2024-01-01T00:00:00Z&to=2024-01-03T00:00:00Z');
    expect(h48.body.issuedCards).toHaveLength(48);
    const over = await get('cards?from=2024-01-01T00:00:00Z&to=2024-01-03T00:00:00.001Z');
    expect(stamps(over.body.issuedCards)).toEqual([
      '2024-01-01T00:00:00.000Z',
      '2024-01-02T00:00:00.000Z',
      '2024-01-03T00:00:00.000Z',
    ]);
    const daily = await get('retention?from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z&groupBy=day');
    expect(stamps(daily.body.activeUsers)).toEqual(['2024-01-01T00:00:00.000Z']);
    const hourly = await get('retention?from=2024-01-01T00:00:00Z&to=2024-01-08T00:00:00Z&groupBy=hour');
    expect(hourly.body.activeUsers).toHaveLength(168);
  });

  it('takes every bucket overlapping [from, to): unaligned edges round out, an aligned to is excluded', async () => {
    const { body } = await get('operations?from=2024-01-01T10:30:00Z&to=2024-01-01T12:15:00Z');
    expect(stamps(body.operationsCount)).toEqual([
      '2024-01-01T10:00:00.000Z',
      '2024-01-01T11:00:00.000Z',
      '2024-01-01T12:00:00.000Z',
    ]);
    const offset = await get('operations?from=2024-01-01T12:30:00%2B02:00&to=2024-01-01T11:00:00Z');
    expect(stamps(offset.body.operationsCount)).toEqual(['2024-01-01T10:00:00.000Z']);
  });

  it('counts an operation at exactly 00:00:00.000 and at 23:59:59.999 in the right hour and day', async () => {
    const account = await insertAccount(db);
    await insertOperation(db, { accountId: account, createdAt: '2024-02-10T00:00:00.000Z', points: 10 });
    await insertOperation(db, { accountId: account, createdAt: '2024-02-10T23:59:59.999Z', points: -2.5 });
    await insertOperation(db, { accountId: account, createdAt: '2024-02-09T23:59:59.999Z', points: 1 });
    await insertOperation(db, { accountId: account, createdAt: '2024-02-11T00:00:00.000Z', points: 1 });

    const day = await get('operations?from=2024-02-10T00:00:00Z&to=2024-02-11T00:00:00Z&groupBy=day');
    expect(day.body).toEqual({
      operationsCount: [{ timestamp: '2024-02-10T00:00:00.000Z', count: 2 }],
      operationsVolume: [{ timestamp: '2024-02-10T00:00:00.000Z', amount: 12.5 }],
    });
    const hours = await get('operations?from=2024-02-10T00:00:00Z&to=2024-02-11T00:00:00Z');
    const byHour = counts(hours.body.operationsCount);
    expect(byHour[0]).toBe(1);
    expect(byHour[23]).toBe(1);
    expect(byHour.reduce((a, b) => a + b, 0)).toBe(2);
    const around = await get('retention?from=2024-02-09T00:00:00Z&to=2024-02-12T00:00:00Z');
    expect(counts(around.body.activeUsers)).toEqual([1, 1, 1]);
  });

  it('buckets in UTC whatever the session time zone of the writer', async () => {
    const account = await insertAccount(db);
    await db.transaction().execute(async (trx) => {
      await sql`set local time zone 'Asia/Kolkata'`.execute(trx);
      await sql`insert into operations (type, status, points, account_id, created_at)
        values ('accrual', 'completed', 3, ${account}, '2024-03-05 00:10:00+00')`.execute(trx);
    });
    const { body } = await get('operations?from=2024-03-05T00:00:00Z&to=2024-03-05T01:00:00Z');
    expect(body.operationsCount).toEqual([{ timestamp: '2024-03-05T00:00:00.000Z', count: 1 }]);
  });
});

describe('analytics semantics', () => {
  const range = 'from=2024-04-01T00:00:00Z&to=2024-04-03T00:00:00Z&groupBy=day';

  it('counts completed operations only, and follows status changes, point changes and deletes', async () => {
    const a = await insertAccount(db);
    const at = '2024-04-01T09:15:00Z';
    await insertOperation(db, { accountId: a, createdAt: at, points: 5, status: 'failed' });
    const hold = await insertOperation(db, {
      accountId: a,
      createdAt: at,
      points: -4,
      type: 'hold',
      status: 'active',
    });
    const done = await insertOperation(db, { accountId: a, createdAt: at, points: -3, type: 'redemption' });
    let res = await get(`operations?${range}`);
    expect(counts(res.body.operationsCount)).toEqual([1, 0]);
    expect(res.body.operationsVolume[0].amount).toBe(3);

    await db.updateTable('operations').set({ status: 'applied' }).where('id', '=', hold).execute();
    await db.updateTable('operations').set({ points: -7.25 }).where('id', '=', done).execute();
    res = await get(`operations?${range}`);
    expect(counts(res.body.operationsCount)).toEqual([1, 0]);
    expect(res.body.operationsVolume[0].amount).toBe(7.25);

    await db.updateTable('operations').set({ status: 'voided' }).where('id', '=', done).execute();
    res = await get(`operations?${range}`);
    expect(counts(res.body.operationsCount)).toEqual([0, 0]);
    expect(counts((await get(`retention?${range}`)).body.activeUsers)).toEqual([0, 0]);

    await db.updateTable('operations').set({ status: 'completed' }).where('id', '=', done).execute();
    expect(counts((await get(`retention?${range}`)).body.activeUsers)).toEqual([1, 0]);
    await db.deleteFrom('operations').where('id', '=', done).execute();
    expect(counts((await get(`operations?${range}`)).body.operationsCount)).toEqual([0, 0]);
    expect(counts((await get(`retention?${range}`)).body.activeUsers)).toEqual([0, 0]);
  });

  it('active users are distinct per bucket, never unioned across days', async () => {
    const [a, b] = [await insertAccount(db), await insertAccount(db)];
    for (const [account, at] of [
      [a, '2024-04-01T10:00:00Z'],
      [a, '2024-04-01T10:30:00Z'],
      [a, '2024-04-02T08:00:00Z'],
      [b, '2024-04-02T08:00:00Z'],
    ] as const) {
      await insertOperation(db, { accountId: account, createdAt: at, points: 1 });
    }
    expect(counts((await get(`retention?${range}`)).body.activeUsers)).toEqual([1, 2]);
    const hourly = await get('retention?from=2024-04-01T10:00:00Z&to=2024-04-01T11:00:00Z');
    expect(counts(hourly.body.activeUsers)).toEqual([1]);
  });

  it("an expiry counts in operations and volume but makes no account active (it is not the member's doing)", async () => {
    const [a, b] = [await insertAccount(db), await insertAccount(db)];
    await insertOperation(db, { accountId: a, createdAt: '2024-06-01T10:00:00Z', points: 5 });
    await insertOperation(db, {
      accountId: b,
      createdAt: '2024-06-01T10:30:00Z',
      points: -7,
      type: 'expiry',
    });
    const day = 'from=2024-06-01T00:00:00Z&to=2024-06-02T00:00:00Z&groupBy=day';
    const operations = (await get(`operations?${day}`)).body;
    expect(counts(operations.operationsCount)).toEqual([2]);
    expect(operations.operationsVolume[0].amount).toBe(12);
    expect(counts((await get(`retention?${day}`)).body.activeUsers)).toEqual([1]);
    const hour = 'from=2024-06-01T10:00:00Z&to=2024-06-01T11:00:00Z';
    expect(counts((await get(`retention?${hour}`)).body.activeUsers)).toEqual([1]);
  });

  it('buckets cards on issuedAt, else createdAt, and follows changes to them', async () => {
    const a = await insertAccount(db);
    await insertCard(db, a, '2024-05-01T10:00:00Z');
    const card = await insertCard(db, a, '2024-05-01T10:00:00Z', '2024-05-02T00:00:00Z');
    const range5 = 'from=2024-05-01T00:00:00Z&to=2024-05-03T00:00:00Z&groupBy=day';
    expect(counts((await get(`cards?${range5}`)).body.issuedCards)).toEqual([1, 1]);
    await db.updateTable('cards').set({ issued_at: null }).where('id', '=', card).execute();
    expect(counts((await get(`cards?${range5}`)).body.issuedCards)).toEqual([2, 0]);
    await db.deleteFrom('cards').where('id', '=', card).execute();
    expect(counts((await get(`cards?${range5}`)).body.issuedCards)).toEqual([1, 0]);
  });

  it('bonuses-circulation sums balances and held balances; active = total − held', async () => {
    const before = (await get('bonuses-circulation')).body;
    const a = await insertAccount(db, 100.1, 20.05);
    await insertAccount(db, 0.2, 0);
    let { body } = await get('bonuses-circulation');
    expect(body.totalPoints).toBeCloseTo(before.totalPoints + 100.3, 2);
    expect(body.heldPoints).toBeCloseTo(before.heldPoints + 20.05, 2);
    expect(body.activePoints).toBeCloseTo(body.totalPoints - body.heldPoints, 2);
    expect(Date.parse(body.calculatedAt)).toBeGreaterThan(Date.now() - 60_000);

    await db.updateTable('accounts').set({ balance: 50, held_balance: 0 }).where('id', '=', a).execute();
    ({ body } = await get('bonuses-circulation'));
    expect(body.totalPoints).toBeCloseTo(before.totalPoints + 50.2, 2);
    expect(body.heldPoints).toBeCloseTo(before.heldPoints, 2);
  });
});

describe('analytics validation and access', () => {
  it.each([
    ['operations', '', 'from'],
    ['operations', 'from=2024-01-01T00:00:00Z', 'to'],
    ['cards', 'from=yesterday&to=2024-01-02T00:00:00Z', 'from'],
    ['cards', 'from=2024-01-01&to=2024-01-02T00:00:00Z', 'from'],
    ['cards', 'from=2025-02-28T00:00:00Z&to=2025-02-30T00:00:00Z', 'to'],
    ['cards', 'from=2024-01-01T00:00:00&to=2024-01-02T00:00:00Z', 'from'],
    ['retention', 'from=2024-01-02T00:00:00Z&to=2024-01-02T00:00:00Z', 'must be after from'],
    ['retention', 'from=2024-01-03T00:00:00Z&to=2024-01-02T00:00:00Z', 'must be after from'],
    ['operations', 'from=2023-01-01T00:00:00Z&to=2024-03-01T00:00:00Z', 'at most 400 days'],
    ['operations', 'from=2024-01-01T00:00:00Z&to=2024-03-01T00:00:00Z&groupBy=hour', 'at most 31 days'],
    ['operations', 'from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z&groupBy=week', 'groupBy'],
  ])('%s?%s is a 400 VALIDATION_ERROR', async (path, query, message) => {
    const { status, body } = await get(`${path}?${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(body)).toContain(message);
  });

  it('every role may read every endpoint; no token is a 401', async () => {
    const paths = [
      'operations?from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z',
      'cards?from=2024-01-01T00:00:00Z&to=2024-01-08T00:00:00Z',
      'retention?from=2024-01-01T00:00:00Z&to=2024-01-31T00:00:00Z',
      'bonuses-circulation',
    ];
    for (const role of ['ADMIN', 'MANAGER', 'VIEWER'] as const) {
      for (const path of paths) expect((await get(path, ctx.tokens[role])).status).toBe(200);
    }
    const anonymous = await app.inject({ url: '/api/v1/analytics/bonuses-circulation' });
    expect(anonymous.statusCode).toBe(401);
  });
});
