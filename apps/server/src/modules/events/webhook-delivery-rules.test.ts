import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction';
import { outcomeOf, retryAfterSeconds } from './attempt-outcome';
import { deliverUntilCaughtUp } from './deliver-until-caught-up.test-support';
import { deliverDue } from './delivery-worker';
import { insertEvents } from './events.repository';
import { adminApi, receiverPerTest, webhookTestContext } from './webhook-test-context.test-support';

const { ctx, db, crypto } = await webhookTestContext();
const api = adminApi(ctx);
const options = { timeoutMs: 30_000, allowPrivate: true, retrySchedule: [0, 0] };
const receiver = receiverPerTest(db);

interface Arrival {
  headers: IncomingHttpHeaders;
  body: { id: string; type: string; data: Record<string, unknown> };
}

/**
 * A receiver that takes `delayMs` to answer each request (what `answer` says, 200 by default), recording
 * the order requests arrive in and the most that were in flight at once, in all and per account.
 */
async function slowReceiver(
  delayMs: number,
  answer: (arrival: Arrival) => [number, Record<string, string>?],
) {
  const arrivals: Arrival[] = [];
  const inFlight = new Map<string, number>();
  const most = { all: 0, perAccount: 0 };
  let running = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => {
      const arrival = { headers: req.headers, body: JSON.parse(text) } as Arrival;
      arrivals.push(arrival);
      const account = String(arrival.body.data.accountId ?? arrival.body.data.id);
      inFlight.set(account, (inFlight.get(account) ?? 0) + 1);
      running++;
      most.all = Math.max(most.all, running);
      most.perAccount = Math.max(most.perAccount, inFlight.get(account)!);
      setTimeout(() => {
        inFlight.set(account, inFlight.get(account)! - 1);
        running--;
        const [status, headers] = answer(arrival);
        for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
        res.statusCode = status;
        res.end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    arrivals,
    most,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
type SlowReceiver = Awaited<ReturnType<typeof slowReceiver>>;
let slow: SlowReceiver | undefined;
afterEach(async () => {
  await slow?.close();
  slow = undefined;
});

async function endpoint(url: string, eventTypes: string[]) {
  return (await api('POST', '/api/v1/webhooks', { url, eventTypes })) as { id: string; secret: string };
}

/** Each event in a transaction of its own, one after another: commit order is the order written. */
async function commitEach(events: { type: string; data: Record<string, unknown> }[]): Promise<number[]> {
  const ids: number[] = [];
  for (const event of events) ids.push(...(await inTransaction(db, (trx) => insertEvents(trx, [event]))));
  return ids;
}

const deliveriesOf = async (id: string) =>
  (await api('GET', `/api/v1/webhooks/${id}/deliveries?size=200`)).content as Array<Record<string, unknown>>;

describe('order: one account in commit order, different accounts side by side', () => {
  it('a slow receiver gets the events of each account one after another, in commit order', async () => {
    slow = await slowReceiver(40, () => [200]);
    const hook = await endpoint(slow.url, ['points.accrued', 'hold.created', 'points.redeemed']);
    // Two accounts' accruals interleaved, and a hold then its capture of account A.
    const written: { type: string; data: Record<string, unknown> }[] = [];
    for (let i = 0; i < 8; i++) {
      written.push({ type: 'points.accrued', data: { accountId: 'A', balance: i } });
      written.push({ type: 'points.accrued', data: { accountId: 'B', balance: i } });
    }
    written.push({ type: 'hold.created', data: { accountId: 'A', balance: 8 } });
    written.push({ type: 'points.redeemed', data: { accountId: 'A', balance: 9 } });
    const ids = await commitEach(written);
    await deliverUntilCaughtUp(db, crypto, options);
    const arrivedOf = (account: string) =>
      slow!.arrivals.filter((a) => a.body.data.accountId === account).map((a) => Number(a.body.id));
    expect(arrivedOf('A')).toEqual(ids.filter((_, i) => written[i]!.data.accountId === 'A'));
    expect(arrivedOf('B')).toEqual(ids.filter((_, i) => written[i]!.data.accountId === 'B'));
    // One account's attempt starts when its last one has ended; the two accounts' overlap.
    expect(slow.most.perAccount).toBe(1);
    expect(slow.most.all).toBeGreaterThanOrEqual(2);
    expect((await deliveriesOf(hook.id)).every((d) => d.status === 'succeeded')).toBe(true);
    expect(await deliveriesOf(hook.id)).toHaveLength(18);
  });

  it('a batch that runs out of time stops before its first event not sent: the next goes on in order, none twice', async () => {
    slow = await slowReceiver(150, () => [200]);
    const hook = await endpoint(slow.url, ['points.accrued']);
    const ids = await commitEach(
      Array.from({ length: 8 }, (_, i) => ({ type: 'points.accrued', data: { accountId: 'C', balance: i } })),
    );
    // An account's chain longer than a batch's time: several batches.
    await deliverUntilCaughtUp(db, crypto, { ...options, timeoutMs: 400 });
    expect(slow.arrivals.map((a) => Number(a.body.id))).toEqual(ids);
    expect(slow.most.perAccount).toBe(1);
    expect(await deliveriesOf(hook.id)).toHaveLength(8);
  });
});

describe('410 Gone: the endpoint is disabled', () => {
  it('from the stream: one attempt, the delivery failed with the reason, the endpoint disabled by the system (audited)', async () => {
    const hook = await endpoint(receiver.current.url, ['points.accrued']);
    receiver.current.always(410);
    await commitEach([
      { type: 'points.accrued', data: { accountId: 'G', balance: 1 } },
      { type: 'points.accrued', data: { accountId: 'G', balance: 2 } },
    ]);
    await deliverUntilCaughtUp(db, crypto, options);
    // The second event of the account waited for the first, whose 410 ended the batch: never sent.
    expect(receiver.current.received).toHaveLength(1);
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, responseStatus: 410 });
    expect(delivery!.lastError).toMatch(/410 Gone.*disabled/);
    expect(await api('GET', '/api/v1/webhooks')).toContainEqual(
      expect.objectContaining({ id: hook.id, status: 'disabled' }),
    );
    const audit = await db
      .selectFrom('audit_log')
      .select(['username', 'message'])
      .where('target_id', '=', hook.id)
      .orderBy('executed_at')
      .orderBy('id')
      .execute();
    expect(audit.at(-1)).toMatchObject({ username: null, message: expect.stringMatching(/410 Gone/) });
  });

  it('from a delivery row (the test event): failed, the endpoint disabled', async () => {
    const hook = await endpoint(receiver.current.url, ['points.accrued']);
    receiver.current.always(410);
    await api('POST', `/api/v1/webhooks/${hook.id}/test`);
    await deliverDue(db, crypto, options);
    await deliverUntilCaughtUp(db, crypto, options);
    expect(receiver.current.received).toHaveLength(1);
    expect(await deliveriesOf(hook.id)).toMatchObject([
      { status: 'failed', attempts: 1, responseStatus: 410 },
    ]);
    expect(await api('GET', '/api/v1/webhooks')).toContainEqual(
      expect.objectContaining({ id: hook.id, status: 'disabled' }),
    );
  });
});

describe('Retry-After on 429 and 503', () => {
  const schedule = [5, 60, 300];
  const answer = (status: number, retryAfter?: string) => ({
    status,
    error: null,
    ...(retryAfter ? { retryAfter } : {}),
  });

  it('waits longer when asked, never past the schedule’s last step, never less than its step', () => {
    expect(outcomeOf(answer(503, '120'), 1, schedule).retryInSeconds).toBe(120);
    expect(outcomeOf(answer(429, '120'), 1, schedule).retryInSeconds).toBe(120);
    expect(outcomeOf(answer(429, '86400'), 1, schedule).retryInSeconds).toBe(300);
    expect(outcomeOf(answer(503, '1'), 2, schedule).retryInSeconds).toBe(60);
    expect(outcomeOf(answer(500, '120'), 1, schedule).retryInSeconds).toBe(5);
    expect(outcomeOf(answer(503, 'soon'), 1, schedule).retryInSeconds).toBe(5);
    // Out of retries it is failed, whatever it asks.
    expect(outcomeOf(answer(503, '120'), 4, schedule).retryInSeconds).toBeNull();
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    expect(outcomeOf(answer(503, inTwoMinutes), 1, schedule).retryInSeconds).toBeGreaterThanOrEqual(115);
    expect(retryAfterSeconds('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(0);
  });

  it("a 503's Retry-After sets the delivery's next attempt", async () => {
    slow = await slowReceiver(0, () => [503, { 'retry-after': '200' }]);
    const hook = await endpoint(slow.url, ['points.accrued']);
    await commitEach([{ type: 'points.accrued', data: { accountId: 'R', balance: 1 } }]);
    await deliverDue(db, crypto, { ...options, retrySchedule: [5, 600] });
    for (let i = 0; i < 100 && slow.arrivals.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await deliverDue(db, crypto, { ...options, retrySchedule: [5, 600] });
    }
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503 });
    const wait = (Date.parse(String(delivery!.nextAttemptAt)) - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(150);
    expect(wait).toBeLessThanOrEqual(201);
  });
});

describe('webhook-id: unique beyond this database', () => {
  it("is evt_<the event's message id>, signed as such; the payload keeps the event id", async () => {
    const hook = await endpoint(receiver.current.url, ['points.accrued']);
    const [eventId] = await commitEach([{ type: 'points.accrued', data: { accountId: 'I', balance: 1 } }]);
    await deliverUntilCaughtUp(db, crypto, options);
    const { rows } = await sql<{
      message_id: string;
    }>`select message_id from events where id = ${eventId}`.execute(db);
    const [got] = receiver.current.received;
    const headers = {
      'webhook-id': String(got!.headers['webhook-id']),
      'webhook-timestamp': String(got!.headers['webhook-timestamp']),
      'webhook-signature': String(got!.headers['webhook-signature']),
    };
    expect(headers['webhook-id']).toBe(`evt_${rows[0]!.message_id}`);
    expect(new Webhook(hook.secret).verify(got!.body, headers)).toMatchObject({ id: String(eventId) });
    // The rows' attempts (the test event) too.
    await api('POST', `/api/v1/webhooks/${hook.id}/test`);
    await deliverUntilCaughtUp(db, crypto, options);
    expect(receiver.current.received[1]!.headers['webhook-id']).toMatch(/^evt_[0-9a-f-]{36}$/);
  });

  it('a database restored from a backup (its id sequence rewound) never sends a new event under a webhook-id already sent', async () => {
    await endpoint(receiver.current.url, ['points.accrued']);
    const [first] = await commitEach([{ type: 'points.accrued', data: { accountId: 'J', balance: 1 } }]);
    await deliverUntilCaughtUp(db, crypto, options);
    // As a dump taken before `first` and restored: the event gone, the sequence back, the stream before it.
    await sql`delete from events where id = ${first}`.execute(db);
    await sql`select setval(pg_get_serial_sequence('events', 'id'), ${first}, false)`.execute(db);
    await sql`update webhook_endpoints set stream_xid = '0'::xid8, stream_id = 0`.execute(db);
    const [again] = await commitEach([{ type: 'points.accrued', data: { accountId: 'K', balance: 1 } }]);
    expect(again).toBe(first);
    await deliverUntilCaughtUp(db, crypto, options);
    const sent = receiver.current.received
      .filter((r) => JSON.parse(r.body).id === String(first))
      .map((r) => ({ id: r.headers['webhook-id'], account: JSON.parse(r.body).data.accountId }));
    expect(sent.map((s) => s.account)).toEqual(['J', 'K']);
    expect(sent[0]!.id).not.toBe(sent[1]!.id);
  });
});
