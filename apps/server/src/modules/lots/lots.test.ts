import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../../test/helper';
import { inTransaction } from '../../db/transaction';
import { insertCreditLots } from '../ledger/lots.sql';
import { expirePoints } from '../ledger/points-expiry';
import { expireDueLots, lockDueAccounts } from '../ledger/points-expiry.repository';
import { createCard, expireHold, opId, posTestFile, whileLocked } from '../pos/pos.fixtures';

const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 10 } });
const admin = () => bearer(ctx.tokens.ADMIN);
const DAY = 86_400_000;

const settings = (points: { expiry_days?: number | null; pending_days?: number | null }) =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/settings', headers: admin(), payload: { points } });
const accrue = (cardNumber: string, price: number, purchasedAt?: string) =>
  pos.accrue({
    operationId: opId('acc'),
    cardNumber,
    receipt: {
      receiptId: opId('R'),
      items: [{ sku: 'A', quantity: 1, price }],
      ...(purchasedAt ? { purchasedAt } : {}),
    },
  });
const lotsOf = (accountId: string, query = '') =>
  ctx.app.inject({ url: `/api/v1/accounts/${accountId}/lots${query}`, headers: bearer(ctx.tokens.VIEWER) });
/** Moves an account's lots back in time, as if `days` went by. */
const age = (accountId: string, days: number) =>
  sql`update lots set earned_at = earned_at - make_interval(days => ${days}),
      available_at = available_at - make_interval(days => ${days}), expires_at = expires_at - make_interval(days => ${days})
    where account_id = ${accountId}::uuid`.execute(db);
const expireNow = () =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/admin/points/expire', headers: admin() });

beforeAll(async () => {
  await settings({ expiry_days: null, pending_days: null });
});

describe('offline tills: receipt.purchasedAt', () => {
  it('dates the lot from the purchase and is returned in the receipt detail', async () => {
    await settings({ expiry_days: 10, pending_days: 2 });
    const card = await createCard(db);
    const purchasedAt = new Date(Date.now() - 5 * DAY).toISOString();
    const res = await accrue(card.number, 100, purchasedAt);
    expect(res.statusCode, res.body).toBe(201);
    const { content } = (await lotsOf(card.accountId)).json();
    expect(content).toHaveLength(1);
    expect(content[0]).toMatchObject({
      earnedAt: purchasedAt,
      availableAt: new Date(Date.parse(purchasedAt) + 2 * DAY).toISOString(),
      expiresAt: new Date(Date.parse(purchasedAt) + 12 * DAY).toISOString(),
      points: 10,
      remaining: 10,
      status: 'open',
    });
    const receipt = await ctx.app.inject({
      url: `/api/v1/receipts/operation/${content[0].creditOperationId}`,
      headers: admin(),
    });
    expect(receipt.json().receipt.purchasedAt).toBe(purchasedAt);
    await settings({ expiry_days: null, pending_days: null });
  });

  it('a purchasedAt a till clock puts slightly ahead counts as now: its points are not pending', async () => {
    // Within the contract's clock-skew allowance (PURCHASED_AT_CLOCK_SKEW_MS): accepted as "now", so without
    // a pending period the points are available at once, and the lot is not earned in the future.
    const card = await createCard(db);
    const ahead = new Date(Date.now() + 30_000).toISOString();
    const res = await accrue(card.number, 100, ahead);
    expect(res.statusCode, res.body).toBe(201);
    expect((await pos.card(card.number)).json()).toMatchObject({
      balance: 10,
      pendingBalance: 0,
      availableBalance: 10,
    });
    const [lot] = (await lotsOf(card.accountId)).json().content;
    expect(Date.parse(lot.earnedAt)).toBeLessThan(Date.parse(ahead));
    expect(lot.availableAt).toBe(lot.earnedAt);
    expect((await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 10 })).statusCode).toBe(
      201,
    );
  });

  it('the retry of an accrual accepted just inside 30 days is replayed once the purchase is older', async () => {
    const card = await createCard(db);
    const body = {
      operationId: opId('acc'),
      cardNumber: card.number,
      receipt: {
        receiptId: opId('R'),
        items: [{ sku: 'A', quantity: 1, price: 100 }],
        purchasedAt: new Date(Date.now() - 30 * DAY + 60_000).toISOString(),
      },
    };
    const first = await pos.accrue(body);
    expect(first.statusCode, first.body).toBe(201);
    // The answer was lost; the till retries two minutes later, when the purchase is over 30 days old by the
    // server's clock (what the age is checked against).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 });
    try {
      const retry = await pos.accrue(body);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toBe(first.body);
      // A new request for the purchase is refused, without taking its operationId.
      const late = await pos.accrue({ ...body, operationId: opId('acc') });
      expect(late.statusCode).toBe(400);
      expect(late.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'receipt.purchasedAt', message: 'must be at most 30 days old' }],
      });
      const preview = await pos.preview(body);
      expect(preview.statusCode).toBe(400);
      expect(preview.json().details).toEqual([expect.objectContaining({ field: 'receipt.purchasedAt' })]);
    } finally {
      vi.useRealTimers();
    }
    expect((await pos.card(card.number)).json().balance).toBe(10);
  });

  it.each([
    ['in the future', () => new Date(Date.now() + 3_600_000).toISOString(), 'must not be in the future'],
    ['older than 30 days', () => new Date(Date.now() - 31 * DAY).toISOString(), 'at most 30 days old'],
    ['without a zone', () => '2026-11-01T10:00:00', 'ISO-8601'],
  ])(
    'refuses a purchasedAt %s: 400 VALIDATION_ERROR naming the field, nothing written',
    async (_, at, message) => {
      const card = await createCard(db);
      const res = await accrue(card.number, 100, at());
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().details).toEqual([expect.objectContaining({ field: 'receipt.purchasedAt' })]);
      expect(JSON.stringify(res.json().details)).toContain(message);
      expect((await lotsOf(card.accountId)).json().totalElements).toBe(0);
    },
  );
});

describe('pending points', () => {
  it('count in the balance and pendingBalance, not in what a hold can take, until available', async () => {
    await settings({ pending_days: 3 });
    const card = await createCard(db, { balance: 5 });
    expect((await accrue(card.number, 200)).statusCode).toBe(201);
    const read = (await pos.card(card.number)).json();
    expect(read).toMatchObject({ balance: 25, pendingBalance: 20, availableBalance: 5 });
    const account = await ctx.app.inject({ url: `/api/v1/accounts/${card.accountId}`, headers: admin() });
    expect(account.json()).toMatchObject({ balance: 25, pendingBalance: 20, availableBalance: 5 });
    const over = await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 6 });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('INSUFFICIENT_FUNDS');
    await age(card.accountId, 3);
    expect((await pos.card(card.number)).json()).toMatchObject({ pendingBalance: 0, availableBalance: 25 });
    expect((await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 6 })).statusCode).toBe(
      201,
    );
    await settings({ pending_days: null });
  });
});

describe('lot dates', () => {
  it('count whole 24-hour days whatever the session time zone, also across a DST change', async () => {
    await settings({ pending_days: 2, expiry_days: 10 });
    const card = await createCard(db);
    // Europe/Berlin moves its clocks on 28 March 2027, inside both periods of a lot earned on the 20th.
    const earned = Date.parse('2027-03-20T12:00:00Z');
    const dates = await db
      .transaction()
      .execute(async (trx) => {
        await sql`set local time zone 'Europe/Berlin'`.execute(trx);
        await sql`with s as (select null::uuid as id, ${card.accountId}::uuid as account_id, 5::numeric as points,
            ${new Date(earned)}::timestamptz as earned_at)
          ${insertCreditLots(sql`s`)}`.execute(trx);
        const { rows } = await sql<{ available_at: Date; expires_at: Date }>`select available_at, expires_at
          from lots where account_id = ${card.accountId}::uuid`.execute(trx);
        // Nothing stays: a lot without its credit is only what this test reads.
        throw Object.assign(new Error('rollback'), { rows });
      })
      .catch((error: { rows?: Array<{ available_at: Date; expires_at: Date }> }) => error.rows);
    expect(dates).toEqual([
      { available_at: new Date(earned + 2 * DAY), expires_at: new Date(earned + 12 * DAY) },
    ]);
    await settings({ pending_days: null, expiry_days: null });
  });
});

describe('expiry', () => {
  it('expires due lots once per account, never what an active hold needs; forecast, nextExpiry, lots and event', async () => {
    await settings({ expiry_days: 45 });
    const card = await createCard(db);
    expect((await accrue(card.number, 100)).statusCode).toBe(201); // 10 points
    await age(card.accountId, 20);
    expect((await accrue(card.number, 50)).statusCode).toBe(201); // 5 points, 20 days younger
    const forecast = await ctx.app.inject({
      url: `/api/v1/accounts/${card.accountId}/expiry-forecast`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(forecast.json()).toEqual({ in30Days: 10, in60Days: 15, in90Days: 15 });
    expect((await pos.card(card.number)).json().nextExpiry).toMatchObject({ points: 10 });

    // A hold of 12 needs all but 3 of the 15 points.
    const hold = (await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 12 })).json();
    await age(card.accountId, 31);
    const run = await expireNow();
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toEqual({ accounts: 1, points: 3 });
    expect((await pos.card(card.number)).json()).toMatchObject({ balance: 12, heldBalance: 12 });
    expect((await expireNow()).json()).toEqual({ accounts: 0, points: 0 });
    const audit = await ctx.app.inject({
      url: '/api/v1/audit?targetType=operation&size=100',
      headers: admin(),
    });
    expect(audit.json().content.map((e: { message: string }) => e.message)).toEqual(
      expect.arrayContaining(['Ran points expiry: 3 points expired on 1 account']),
    );

    const ops = await ctx.app.inject({
      url: `/api/v1/operations?type=expiry&accountId=${card.accountId}`,
      headers: admin(),
    });
    expect(ops.json().totalElements).toBe(1);
    expect(ops.json().content[0]).toMatchObject({ type: 'expiry', status: 'completed', points: '-3.00' });
    // All 3 came from the lot that expires first.
    expect(ops.json().content[0].meta.lots).toBe(1);
    // On PostgreSQL the feed serves a commit once every older transaction of the server has ended (other
    // files' included), so the event is polled for, within a bound.
    await vi.waitFor(
      async () => {
        const events = await ctx.app.inject({
          url: '/api/v1/events?type=points.expired&limit=500',
          headers: admin(),
        });
        const event = events
          .json()
          .events.find((e: { data: { id: string } }) => e.data.id === ops.json().content[0].id);
        expect(event?.data).toMatchObject({ type: 'expiry', points: '-3.00', balance: 12 });
      },
      { timeout: 100_000, interval: 100 },
    );

    // The capture takes the expired lot first (7 left), then the other; nothing is left to expire.
    expect((await pos.capture(hold.holdId, { operationId: opId('c') })).statusCode).toBe(200);
    expect((await expireNow()).json()).toEqual({ accounts: 0, points: 0 });
    const lots = (await lotsOf(card.accountId)).json().content;
    expect(lots.map((l: { status: string }) => l.status).sort()).toEqual(['expired', 'spent']);
    expect((await lotsOf(card.accountId, '?status=expired')).json().totalElements).toBe(1);
    expect((await lotsOf(card.accountId, '?status=spent')).json().totalElements).toBe(1);
    expect((await lotsOf(card.accountId, '?status=open')).json().totalElements).toBe(0);
    await settings({ expiry_days: null });
  });

  it('a lapsed hold keeps nothing from expiring, even before the hold sweeper voids it (issue 15.5)', async () => {
    await settings({ expiry_days: 45 });
    const card = await createCard(db);
    expect((await accrue(card.number, 100)).statusCode).toBe(201); // 10 points
    const hold = await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 4 });
    expect(hold.statusCode, hold.body).toBe(201);
    await expireHold(db, hold.json().holdId); // lapsed; this file's hold sweeper is off
    await age(card.accountId, 50);
    // Every due point, as the ledger has it: what the lots hold past their expiry.
    const { rows } = await sql<{ due: string }>`select coalesce(sum(remaining), 0)::text as due from lots
      where account_id = ${card.accountId}::uuid and expires_at <= now()`.execute(db);
    expect(Number(rows[0]!.due)).toBe(10);
    const run = await expireNow();
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toEqual({ accounts: 1, points: 10 });
    expect((await pos.card(card.number)).json()).toMatchObject({ balance: 0, heldBalance: 0 });
    const forecast = await ctx.app.inject({
      url: `/api/v1/accounts/${card.accountId}/expiry-forecast`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(forecast.json()).toEqual({ in30Days: 0, in60Days: 0, in90Days: 0 });
    await settings({ expiry_days: null });
  });

  it('a hold that lapses after the run swept keeps its points from that run: held_balance still counts it', async () => {
    await settings({ expiry_days: 45 });
    const card = await createCard(db);
    expect((await accrue(card.number, 100)).statusCode).toBe(201); // 10 points
    const hold = await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 4 });
    expect(hold.statusCode, hold.body).toBe(201);
    await expireHold(db, hold.json().holdId); // lapsed, not voided: as if it lapsed after the run's sweep
    await age(card.accountId, 50);
    // The run's batch after its sweep: lock the due accounts, expire what they can give.
    const expired = await inTransaction(db, async (trx) =>
      expireDueLots(trx, (await lockDueAccounts(trx, 500)).locked),
    );
    expect(expired.map((operation) => Number(operation.points))).toEqual([6]);
    // What the lapsed hold still holds stays in the balance until the sweeper voids it.
    const account = await db
      .selectFrom('accounts')
      .select(['balance', 'held_balance'])
      .where('id', '=', card.accountId)
      .executeTakeFirstOrThrow();
    expect([Number(account.balance), Number(account.held_balance)]).toEqual([4, 4]);
    await settings({ expiry_days: null });
  });

  // PostgreSQL only: PGlite runs one transaction at a time, so no account is ever held by another.
  it.runIf(ctx.database.kind === 'postgres')(
    'accounts held elsewhere at the front of the expiry order do not stop the run for the others',
    async () => {
      await settings({ expiry_days: 1 });
      // What earlier tests left due goes first, so the runs below meet only this test's accounts.
      await expirePoints(db);
      const held = await createCard(db);
      for (const price of [100, 100, 100]) expect((await accrue(held.number, price)).statusCode).toBe(201);
      await age(held.accountId, 5);
      const other = await createCard(db);
      expect((await accrue(other.number, 100)).statusCode).toBe(201);
      await age(other.accountId, 3);
      // A batch of 3 lots: all of the held account's, which are due first.
      const run = await whileLocked(db, { table: 'accounts', id: held.accountId }, () => expirePoints(db, 3));
      expect(run).toEqual({ accounts: 1, points: 10 });
      expect((await pos.card(other.number)).json()).toMatchObject({ balance: 0 });
      expect((await pos.card(held.number)).json()).toMatchObject({ balance: 30 });
      // Free again, it is expired by the next run.
      expect(await expirePoints(db, 3)).toEqual({ accounts: 1, points: 30 });
      await settings({ expiry_days: null });
    },
  );

  it('only an ADMIN runs it', async () => {
    for (const role of ['MANAGER', 'VIEWER'] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/admin/points/expire',
        headers: bearer(ctx.tokens[role]),
      });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('lots reads: bad input', () => {
  it('an unknown status is 400 naming the field; an unknown account 404', async () => {
    const card = await createCard(db, { balance: 1 });
    const res = await lotsOf(card.accountId, '?status=gone');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(res.json().details[0].field).toBe('querystring.status');
    const missing = await lotsOf('00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('ACCOUNT_NOT_FOUND');
    const forecast = await ctx.app.inject({
      url: '/api/v1/accounts/00000000-0000-4000-8000-000000000000/expiry-forecast',
      headers: admin(),
    });
    expect(forecast.statusCode).toBe(404);
  });
});

describe('lots reads: sort (ADMIN-API.md "Lists")', () => {
  it('an unknown sort field is 400, never ignored; sort=earnedAt,asc lists the oldest first', async () => {
    const card = await createCard(db);
    expect((await accrue(card.number, 10)).statusCode).toBe(201);
    expect((await accrue(card.number, 20)).statusCode).toBe(201);
    await sql`update lots set earned_at = earned_at - interval '1 day'
      where account_id = ${card.accountId}::uuid and points = 1`.execute(db);
    for (const sort of ['points', 'expiresAt,asc', 'earnedAt,up']) {
      const res = await lotsOf(card.accountId, `?sort=${sort}`);
      expect(res.statusCode, sort).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'querystring.sort' }],
      });
    }
    const points = async (query: string) => {
      const res = await lotsOf(card.accountId, query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().content.map((l: { points: number }) => l.points);
    };
    expect(await points('')).toEqual([2, 1]);
    expect(await points('?sort=earnedAt,desc')).toEqual([2, 1]);
    expect(await points('?sort=earnedAt,asc')).toEqual([1, 2]);
  });
});
