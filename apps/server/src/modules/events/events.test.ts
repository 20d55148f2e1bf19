import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { inTransaction } from '../../db/transaction';
import { sweepExpiredHolds } from '../ledger/hold-sweeper';
import { createCard, createPosKey, createRuleset, expireHold, opId, till } from '../pos/pos.fixtures';
import { readOperationEventData } from './emit';
import { FEED_SCAN_WINDOW, insertEvents } from './events.repository';
import { readStream } from './streams.repository';

const ctx = await createTestContext({ WEBHOOK_POLL_INTERVAL_MS: '0' });
const db = ctx.database.db;
const admin = bearer(ctx.tokens.ADMIN);

interface Ev {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

async function feed(query = '', token = ctx.tokens.MANAGER) {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/events${query}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { events: Ev[]; next: string | null };
}

/**
 * The feed serves a transaction once every older one on the server has ended (events.repository.ts): on a
 * PostgreSQL server shared with other test files, their transactions delay it. So a test waits, bounded,
 * for the events it expects instead of reading once.
 */
async function since(cursor: string | null, expected: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const page = await feed(cursor ? `?after=${cursor}&limit=500` : '?limit=500');
    if (page.events.length >= expected || Date.now() > deadline) return page;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The cursor after every event committed so far: this file's tests write fewer than 500 before each call
 * (the filtered-feed test writes 10,006 and calls it first).
 */
async function head() {
  const { n } = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '<>', 'webhook.test')
    .executeTakeFirstOrThrow();
  return (await since(null, Number(n))).next;
}

async function api(method: 'GET' | 'POST', url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
}

describe('the outbox: one event per change, in its transaction', () => {
  let cursor: string | null = null;

  it('account.created, card.issued, card.blocked, card.reissued carry what the admin API shows', async () => {
    cursor = await head();
    const account = (await api('POST', '/api/v1/accounts', { clientId: 'events-client-1' })).json();
    const card = (await api('POST', `/api/v1/cards/issue/${account.id}`)).json();
    const second = (await api('POST', `/api/v1/cards/issue/${account.id}`)).json();
    const blocked = (await api('POST', `/api/v1/cards/${card.id}/block`, { reason: 'Lost' })).json();
    const reissued = (await api('POST', `/api/v1/cards/${second.id}/reissue`)).json();
    const page = await since(cursor, 6);
    cursor = page.next;
    expect(page.events.map((e) => e.type)).toEqual([
      'account.created',
      'card.issued',
      'card.issued',
      'card.blocked',
      'card.reissued',
      'card.issued',
    ]);
    const [created, issued, , block, reissue, successor] = page.events;
    expect(created!.data).toEqual(account);
    expect(issued!.data).toEqual(card);
    expect(block!.data).toEqual(blocked);
    expect(reissue!.data).toMatchObject({ id: second.id, replacedBy: reissued.id, status: 'blocked' });
    expect(successor!.data).toEqual(reissued);
    for (const e of page.events) expect(Number.isNaN(Date.parse(e.createdAt))).toBe(false);
  });

  it('points.adjusted has the operation as GET /operations/{id} shows it, with the balances', async () => {
    const card = await createCard(db, { balance: 10 });
    const res = await api('POST', '/api/v1/admin/operations/manual-accrual', {
      accountId: card.accountId,
      points: 2.5,
      reason: 'Goodwill',
    });
    expect(res.statusCode, res.body).toBe(201);
    const page = await since(cursor, 1);
    cursor = page.next;
    expect(page.events.map((e) => e.type)).toEqual(['points.adjusted']);
    const operation = (await api('GET', `/api/v1/operations/${res.json().operation.id}`)).json();
    expect(page.events[0]!.data).toEqual({ ...operation, balance: 12.5, availableBalance: 12.5 });
  });

  it('a refused or failing write emits nothing', async () => {
    const missing = await api('POST', '/api/v1/admin/operations/manual-accrual', {
      accountId: '00000000-0000-4000-8000-000000000000',
      points: 1,
    });
    expect(missing.statusCode).toBe(404);
    const taken = await api('POST', '/api/v1/accounts', { clientId: 'events-client-1' });
    expect(taken.statusCode).toBe(409);
    const pos = till(ctx, (await createPosKey(ctx)).apiKey);
    const refused = await pos.returns({ operationId: opId('ret'), originalOperationId: 'no-such-operation' });
    expect(refused.statusCode).toBe(404);
    // A write that commits after them: once the feed has it, it has everything before it, and only it.
    const marker = (await api('POST', '/api/v1/accounts', { clientId: 'events-marker' })).json();
    const page = await since(cursor, 1);
    cursor = page.next;
    expect(page.events.map((e) => [e.type, e.data.id])).toEqual([['account.created', marker.id]]);
  });

  it('points.returned and hold.expired (by a return and by the sweeper), once each', async () => {
    await createRuleset(db, { version: 1, percent: 10 });
    const pos = till(ctx, (await createPosKey(ctx)).apiKey);
    const card = await createCard(db, { balance: 50 });
    const accrual = opId('acc');
    const receipt = { receiptId: 'R-EV', items: [{ sku: 'A', quantity: 1, price: 100 }] };
    expect((await pos.accrue({ operationId: accrual, cardNumber: card.number, receipt })).statusCode).toBe(
      201,
    );
    const hold = (await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 5 })).json();
    await expireHold(db, hold.holdId);
    cursor = (await since(cursor, 2)).next;

    const ret = opId('ret');
    expect((await pos.returns({ operationId: ret, originalOperationId: accrual })).statusCode).toBe(201);
    const other = await createCard(db, { balance: 20 });
    const lapsed = (
      await pos.hold({ operationId: opId('hold'), cardNumber: other.number, points: 4 })
    ).json();
    await expireHold(db, lapsed.holdId);
    await sweepExpiredHolds(db);
    expect(await sweepExpiredHolds(db)).toBe(0);

    const page = await since(cursor, 4);
    cursor = page.next;
    expect(page.events.map((e) => e.type)).toEqual([
      'hold.expired',
      'points.returned',
      'hold.created',
      'hold.expired',
    ]);
    const [byReturn, returned, , bySweeper] = page.events;
    expect(byReturn!.data).toMatchObject({ id: hold.holdId, type: 'hold', status: 'voided', balance: 60 });
    expect(returned!.data).toMatchObject({ operationId: ret, type: 'adjustment', points: '-10.00' });
    expect(returned!.data).toMatchObject({ balance: 50, availableBalance: 50 });
    expect(bySweeper!.data).toMatchObject({ id: lapsed.holdId, status: 'voided', availableBalance: 20 });
  });
});

describe('the POS writes', () => {
  it('points.accrued, hold.created, points.redeemed, hold.released, hold.expired; a refused call emits nothing', async () => {
    const pos = till(ctx, (await createPosKey(ctx)).apiKey);
    const card = await createCard(db, { balance: 30 });
    let cursor = await head();
    const receipt = { receiptId: 'R-POS', items: [{ sku: 'A', quantity: 2, price: 50 }] };
    const accrual = opId('acc');
    expect((await pos.accrue({ operationId: accrual, cardNumber: card.number, receipt })).statusCode).toBe(
      201,
    );
    const hold = (await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 8 })).json();
    const capture = opId('cap');
    expect((await pos.capture(hold.holdId, { operationId: capture, points: 5 })).statusCode).toBe(200);
    const second = (await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 4 })).json();
    expect((await pos.release(second.holdId, { operationId: opId('rel') })).statusCode).toBe(200);
    const third = (await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 1 })).json();
    await expireHold(db, third.holdId);
    // Capturing a lapsed hold is refused, and voids it: hold.expired, and nothing for the refusal.
    expect((await pos.capture(third.holdId, { operationId: opId('cap') })).statusCode).toBe(409);
    const blocked = await createCard(db, { balance: 1, status: 'blocked' });
    const refused = await pos.accrue({ operationId: opId('acc'), cardNumber: blocked.number, receipt });
    expect(refused.statusCode).toBe(409);

    const page = await since(cursor, 7);
    cursor = page.next;
    expect(page.events.map((e) => e.type)).toEqual([
      'points.accrued',
      'hold.created',
      'points.redeemed',
      'hold.created',
      'hold.released',
      'hold.created',
      'hold.expired',
    ]);
    const [accrued, created, redeemed, , released, , expired] = page.events;
    expect(accrued!.data).toMatchObject({
      operationId: accrual,
      type: 'accrual',
      points: '10.00',
      balance: 40,
    });
    expect(created!.data).toMatchObject({
      id: hold.holdId,
      type: 'hold',
      status: 'active',
      availableBalance: 32,
    });
    expect(redeemed!.data).toMatchObject({ operationId: capture, type: 'redemption', points: '-5.00' });
    expect(redeemed!.data).toMatchObject({ balance: 35, availableBalance: 35 });
    expect(released!.data).toMatchObject({ id: second.holdId, status: 'voided', availableBalance: 35 });
    expect(expired!.data).toMatchObject({ id: third.holdId, status: 'voided', availableBalance: 35 });
    // The event is the hold as it was then (active); the operation has been captured since.
    const operation = (await api('GET', `/api/v1/operations/${created!.data.id}`)).json();
    expect(Object.keys(created!.data).sort()).toEqual(
      [...Object.keys(operation), 'balance', 'availableBalance'].sort(),
    );
  });
});

describe("the POS writes: the event written in the write's own statement", () => {
  /** The event of `type` about operation `id`, as the outbox holds it. */
  async function stored(type: string, id: string) {
    const result = await sql<{ data: Record<string, unknown> }>`
      select data from events where type = ${type} and data->>'id' = ${id}`.execute(db);
    expect(result.rows).toHaveLength(1);
    return result.rows[0]!.data;
  }

  /** What `appendOperationEvents` would write for the operation now: the reference the event must equal. */
  async function reference(id: string) {
    const [found] = await readOperationEventData(db, [id]);
    return found!.data;
  }

  it('equals what a read after the write gives, with pending lots, a lapsed hold and a subscribed endpoint', async () => {
    const endpoint = randomUUID();
    const types = ['points.accrued', 'hold.created', 'points.redeemed', 'hold.released'];
    await db
      .insertInto('webhook_endpoints')
      .values({
        id: endpoint,
        url: 'https://hooks.example/e',
        event_types: types,
        status: 'active',
        secret_cipher: 'x',
      })
      .execute();
    const saved = await api('POST', '/api/v1/settings', { points: { pending_days: 1 } });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const pos = till(ctx, (await createPosKey(ctx, { address: '1 Event Street' })).apiKey);
      const card = await createCard(db, { balance: 50 });
      // A lapsed hold the sweeper has not voided: it no longer counts as held.
      const lapsed = (
        await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 3 })
      ).json();
      await expireHold(db, lapsed.holdId);

      // An accrual whose lot is pending (points.pending_days).
      const accrued = (
        await pos.accrue({
          operationId: opId('acc'),
          cardNumber: card.number,
          receipt: { receiptId: 'R-EV', items: [{ sku: 'A', quantity: 1, price: 120 }] },
        })
      ).json();
      const accrual = await stored(
        'points.accrued',
        accrued.id ?? (await operationIdOf(accrued.operationId)),
      );
      expect(accrual).toEqual(await reference(accrual.id as string));
      expect(accrual).toMatchObject({ type: 'accrual', posAddress: '1 Event Street', availableBalance: 50 });

      const hold = (
        await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 20 })
      ).json();
      const created = await stored('hold.created', hold.holdId);
      expect(created).toEqual(await reference(hold.holdId));
      expect(created).toMatchObject({ status: 'active', availableBalance: 30 });

      // The lots turn pending, so the capture takes its points from pending lots. (What is available after it
      // is then 0 either way: a capture reaches pending lots only once the available ones are used up.)
      await sql`update lots set available_at = now() + interval '1 day' where account_id = ${card.accountId}::uuid`.execute(
        db,
      );
      const capture = opId('cap');
      expect((await pos.capture(hold.holdId, { operationId: capture, points: 15 })).statusCode).toBe(200);
      const redemption = await operationIdOf(capture);
      const redeemed = await stored('points.redeemed', redemption);
      expect(redeemed).toEqual(await reference(redemption));
      expect(redeemed).toMatchObject({ meta: { reason: 'Captured 15.00 of 20.00 held; 5.00 released' } });

      await sql`update lots set available_at = now() where account_id = ${card.accountId}::uuid`.execute(db);
      const second = (
        await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 2 })
      ).json();
      expect((await pos.release(second.holdId, { operationId: opId('rel') })).statusCode).toBe(200);
      const released = await stored('hold.released', second.holdId);
      expect(released).toEqual(await reference(second.holdId));
      expect(released).toMatchObject({ status: 'voided', meta: { reason: 'Released' } });

      // The write queued no delivery of its own: the subscribed endpoint's stream holds each event, in order.
      const queued = await sql<{ n: number }>`
        select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpoint}::uuid`.execute(db);
      expect(queued.rows[0]!.n).toBe(0);
      const stream = await db
        .selectFrom('webhook_endpoints')
        .select(['id', 'url', 'secret_cipher', 'event_types', 'stream_id', 'stream_slots'])
        .select(sql<string>`stream_xid::text`.as('stream_xid'))
        .where('id', '=', endpoint)
        .executeTakeFirstOrThrow();
      // A stream reads only transactions older than every one running on the server: on PostgreSQL another
      // test file's open transaction can hold the last events back for a moment, so wait for them (bounded).
      const streamed = await vi.waitFor(
        async () => {
          const read = (await readStream(db, stream, 500)).filter((e) => e.data !== null);
          expect(read).toHaveLength(6);
          return read;
        },
        { timeout: 100_000, interval: 20 },
      );
      expect(streamed.map((e) => e.type)).toEqual([
        'hold.created',
        'points.accrued',
        'hold.created',
        'points.redeemed',
        'hold.created',
        'hold.released',
      ]);
      expect(JSON.parse(streamed[1]!.data!)).toEqual(accrual);
      expect(JSON.parse(streamed[5]!.data!)).toEqual(released);
    } finally {
      await api('POST', '/api/v1/settings', { points: { pending_days: null } });
      await sql`update webhook_endpoints set status = 'disabled' where id = ${endpoint}::uuid`.execute(db);
    }
  });
});

async function operationIdOf(operationId: string): Promise<string> {
  const row = await db
    .selectFrom('operations')
    .select('id')
    .where('operation_id', '=', operationId)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('GET /api/v1/events', () => {
  it('pages with after/limit/next and filters by type', async () => {
    await head();
    const first = await feed('?limit=2');
    expect(first.events).toHaveLength(2);
    const second = await feed(`?after=${first.next}&limit=2`);
    expect(Number(second.events[0]!.id)).toBeGreaterThan(Number(first.events[1]!.id));
    const cards = await feed('?type=card.issued,card.blocked&limit=500');
    expect(cards.events.length).toBeGreaterThan(0);
    expect(new Set(cards.events.map((e) => e.type))).toEqual(new Set(['card.issued', 'card.blocked']));
    // The parameter repeated, as query-string builders write a list, asks the same.
    expect(await feed('?type=card.issued&type=card.blocked&limit=500')).toEqual(cards);
  });

  it('filtered by type, a page reads at most FEED_SCAN_WINDOW events and its next moves past them', async () => {
    const cursor = await head();
    // More events of another type than a page reads, then one of the type asked for.
    const others = Array.from({ length: FEED_SCAN_WINDOW + 5 }, (_, n) => ({
      type: 'points.adjusted' as const,
      data: { n },
    }));
    const filler = await inTransaction(db, (trx) => insertEvents(trx, others));
    const [wanted] = await inTransaction(db, (trx) =>
      insertEvents(trx, [{ type: 'card.reissued', data: {} }]),
    );
    const query = (after: string | null) => `?${after ? `after=${after}&` : ''}type=card.reissued&limit=500`;
    // Polled: on a shared PostgreSQL server another file's open transaction holds the feed back a while.
    let page = await feed(query(cursor));
    const deadline = Date.now() + 100_000;
    while (page.next === cursor && Date.now() < deadline) page = await feed(query(cursor));
    // Nothing of that type in the window: an empty page that goes on after the last event it read.
    expect(page).toEqual({ events: [], next: String(filler[FEED_SCAN_WINDOW - 1]) });
    const moved = page.next;
    page = await feed(query(moved));
    while (page.events.length === 0 && Date.now() < deadline) page = await feed(query(moved));
    expect(page.events.map((event) => event.id)).toEqual([String(wanted)]);
    expect(page.next).toBe(String(wanted));
  });

  it('is for managers and admins; bad input is a 400', async () => {
    const viewer = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/events',
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(viewer.statusCode).toBe(403);
    await feed('', ctx.tokens.ADMIN);
    for (const query of [
      '?limit=501',
      '?after=abc',
      '?type=points.unknown',
      '?type=card.issued&type=x',
      '?limit=0',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/events${query}`, headers: admin });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });
});
