import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp } from '../../../test/helper';
import { inTransaction } from '../../db/transaction';
import { deletedWhileWaiting } from '../pos/pos.fixtures';
import { deliverUntilCaughtUp } from './deliver-until-caught-up.test-support';
import { claimDeliveries } from './deliveries.repository';
import { deliverDue } from './delivery-worker';
import { type EventRow, insertEvents, toEvent } from './events.repository';
import { claimStreamBatch, deliverStream } from './stream-batch';
import { deliveryBacklog } from './streams.repository';
import { type Receiver, startReceiver } from './webhook-receiver.test-support';
import { webhookTestContext } from './webhook-test-context.test-support';

const { ctx, db, crypto } = await webhookTestContext();
const admin = bearer(ctx.tokens.ADMIN);
/** A time limit a receiver on this machine answers within however loaded it is (an answer is not waited for). */
const options = { timeoutMs: 30_000, allowPrivate: true, retrySchedule: [0, 0] };
/** For the tests of a receiver that never answers: each attempt waits this long. */
const hanging = { ...options, timeoutMs: 2000 };
/** Runs the due attempts until nothing is left (the schedule above retries at once). */
const deliverAll = () => deliverUntilCaughtUp(db, crypto, options);

let receiver: Receiver;
beforeEach(async () => {
  // Each test starts without endpoints: none gets the events of another's writes.
  await db.deleteFrom('webhook_endpoints').execute();
  receiver = await startReceiver();
  return () => receiver.close();
});

async function api(
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  token = ctx.tokens.ADMIN,
) {
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function endpoint(eventTypes = ['account.created'], url = receiver.url) {
  const res = await api('POST', '/api/v1/webhooks', { url, description: 'CRM', eventTypes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; url: string };
}

let clients = 0;
const newAccount = () => api('POST', '/api/v1/accounts', { clientId: `wh-client-${clients++}` });

async function deliveries(id: string, query = '') {
  const res = await api('GET', `/api/v1/webhooks/${id}/deliveries${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().content as Array<Record<string, unknown>>;
}

describe('webhook endpoints (ADMIN, audited)', () => {
  it('creates with a whsec_ secret shown once, reveals it (audited), changes, deletes', async () => {
    const created = await endpoint(['account.created', 'card.issued', 'card.issued']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({
      description: 'CRM',
      eventTypes: ['account.created', 'card.issued'],
      status: 'active',
    });
    const list = (await api('GET', '/api/v1/webhooks')).json();
    expect(list.find((w: { id: string }) => w.id === created.id)).not.toHaveProperty('secret');
    const revealed = await api('GET', `/api/v1/webhooks/${created.id}/secret`);
    expect(revealed.json()).toEqual({ secret: created.secret });
    expect(revealed.headers['cache-control']).toBe('no-store');
    const changed = await api('PATCH', `/api/v1/webhooks/${created.id}`, { status: 'disabled' });
    expect(changed.json()).toMatchObject({ status: 'disabled', url: created.url });
    expect((await api('DELETE', `/api/v1/webhooks/${created.id}`)).statusCode).toBe(204);
    expect((await api('GET', `/api/v1/webhooks/${created.id}/secret`)).json().code).toBe('WEBHOOK_NOT_FOUND');
    const audit = await db
      .selectFrom('audit_log')
      .select(['message', 'dest'])
      .where('target_id', '=', created.id)
      .orderBy('executed_at')
      .execute();
    expect(audit.map((a) => a.message.split(' ')[0])).toEqual(['Created', 'Revealed', 'Updated', 'Deleted']);
    expect(JSON.stringify(audit)).not.toContain(created.secret.slice(6));
  });

  it('a URL with credentials is refused at create and at update, naming the field url', async () => {
    // Deliveries are authenticated by their signature; a user name or password in the URL would only be
    // shown to every ADMIN in the endpoints list.
    const withCredentials = [
      'https://crm-user:s3cret@example.com/hook',
      'https://token-as-user@example.com/hook',
      'https://:s3cret@example.com/hook',
      '  https://crm-user:s3cret@example.com/hook  ',
    ];
    const hook = await endpoint();
    for (const url of withCredentials) {
      for (const res of [
        await api('POST', '/api/v1/webhooks', { url, eventTypes: ['card.issued'] }),
        await api('PATCH', `/api/v1/webhooks/${hook.id}`, { url }),
      ]) {
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: [{ field: 'url', message: 'URL must not contain a user name or password' }],
        });
        expect(res.body).not.toContain('s3cret');
      }
    }
    const list = (await api('GET', '/api/v1/webhooks')).json() as Array<{ url: string }>;
    expect(list.map((w) => w.url)).toEqual([hook.url]);
  });

  it('credentials in a URL stored before they were refused never reach the audit log', async () => {
    const created = await endpoint(['account.created']);
    const legacy = receiver.url.replace('://', '://crm-user:first-s3cret@');
    await db.updateTable('webhook_endpoints').set({ url: legacy }).where('id', '=', created.id).execute();
    await api('GET', `/api/v1/webhooks/${created.id}/secret`);
    // A change that leaves the URL alone is still accepted for such an endpoint.
    expect((await api('PATCH', `/api/v1/webhooks/${created.id}`, { status: 'disabled' })).statusCode).toBe(
      200,
    );
    await api('DELETE', `/api/v1/webhooks/${created.id}`);
    const audit = await api('GET', `/api/v1/audit?targetId=${created.id}&size=200`);
    const entries = audit.json().content as Array<{ message: string; source: unknown; dest: unknown }>;
    expect(entries.map((a) => a.message.split(' ')[0])).toEqual([
      'Deleted',
      'Updated',
      'Revealed',
      'Created',
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/first-s3cret|crm-user/);
    // Still says which endpoint: only the credentials are masked.
    expect(entries[0]?.message).toBe(`Deleted webhook endpoint ${receiver.url.replace('://', '://***@')}/`);
  });

  it('the values of a URL query (where receivers put their API keys) never reach the audit log', async () => {
    const url = `${receiver.url}/in?code=fn-k3y-0123&tenant=shop+1`;
    const created = await endpoint(['account.created'], url);
    // The endpoint works with its full URL; only the audit log masks it.
    expect(created.url).toBe(url);
    await api('PATCH', `/api/v1/webhooks/${created.id}`, { description: 'CRM' });
    await api('DELETE', `/api/v1/webhooks/${created.id}`);
    const audit = await api('GET', `/api/v1/audit?targetId=${created.id}&size=200`);
    const entries = audit.json().content as Array<{ message: string }>;
    expect(entries).toHaveLength(3);
    // Before: "Created webhook endpoint http://127.0.0.1:…/in?code=fn-k3y-0123&tenant=shop+1".
    expect(JSON.stringify(entries)).not.toMatch(/fn-k3y|shop/);
    expect(entries[0]?.message).toBe(`Deleted webhook endpoint ${receiver.url}/in?code=***&tenant=***`);
  });

  it('a HEAD of the secret reveals nothing and writes no reveal to the audit log (HEAD is safe)', async () => {
    const created = await endpoint();
    const head = await api('HEAD', `/api/v1/webhooks/${created.id}/secret`);
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-store');
    expect(head.body).toBe('');
    // As GET answers: an unknown endpoint is a 404, a MANAGER is refused.
    expect((await api('HEAD', `/api/v1/webhooks/${randomUUID()}/secret`)).statusCode).toBe(404);
    const manager = await api('HEAD', `/api/v1/webhooks/${created.id}/secret`, undefined, ctx.tokens.MANAGER);
    expect(manager.statusCode).toBe(403);
    const reveals = () =>
      db
        .selectFrom('audit_log')
        .select('message')
        .where('target_id', '=', created.id)
        .where('message', 'like', 'Revealed%')
        .execute();
    expect(await reveals()).toEqual([]);
    expect((await api('GET', `/api/v1/webhooks/${created.id}/secret`)).json()).toEqual({
      secret: created.secret,
    });
    expect(await reveals()).toHaveLength(1);
  });

  it('is for ADMINs; bad input is a 400, an unknown endpoint a 404', async () => {
    expect((await api('GET', '/api/v1/webhooks', undefined, ctx.tokens.MANAGER)).statusCode).toBe(403);
    const bad = [
      { url: 'ftp://example.com/hook', eventTypes: ['card.issued'] },
      { url: 'not a url', eventTypes: ['card.issued'] },
      { url: 'https://example.com/hook', eventTypes: [] },
      { url: 'https://example.com/hook', eventTypes: ['points.unknown'] },
    ];
    for (const body of bad) {
      const res = await api('POST', '/api/v1/webhooks', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await api('PATCH', `/api/v1/webhooks/${missing}`, { status: 'active' })).statusCode).toBe(404);
    expect((await api('POST', `/api/v1/webhooks/${missing}/test`)).json().code).toBe('WEBHOOK_NOT_FOUND');
    const hook = await endpoint();
    // A change that names nothing to change is bad input too, not a server error.
    const empty = await api('PATCH', `/api/v1/webhooks/${hook.id}`, {});
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().code).toBe('VALIDATION_ERROR');
    const retry = await api('POST', `/api/v1/webhooks/${hook.id}/deliveries/${missing}/retry`);
    expect(retry.json().code).toBe('DELIVERY_NOT_FOUND');
  });

  it('without WEBHOOK_ALLOW_PRIVATE only https to public addresses is accepted', async () => {
    const strict = await buildTestApp(ctx.database, {
      WEBHOOK_ALLOW_PRIVATE: 'false',
      WEBHOOK_POLL_INTERVAL_MS: '0',
    });
    try {
      for (const url of [
        'http://example.com/hook',
        'https://127.0.0.1/hook',
        'https://[::1]/x',
        'https://169.254.169.254/x',
        'https://10.1.2.3/x',
        // RFC 6761 loopback names: every delivery would fail at the lookup.
        'https://localhost/x',
        'https://LOCALHOST./x',
        'https://api.localhost/x',
      ]) {
        const res = await strict.inject({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: admin,
          payload: { url, eventTypes: ['card.issued'] },
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().details[0].field).toBe('url');
      }
      // A name that only ends in the word is a public name like any other.
      const fine = await strict.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: admin,
        payload: { url: 'https://mylocalhost.example/x', eventTypes: ['card.issued'] },
      });
      expect(fine.statusCode, fine.body).toBe(201);
    } finally {
      await strict.close();
    }
  });
});

describe('deliveries', () => {
  it('signs with Standard Webhooks: the package verifies it, a tampered body fails', async () => {
    const hook = await endpoint();
    const account = (await newAccount()).json();
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const headers = {
      'webhook-id': String(got!.headers['webhook-id']),
      'webhook-timestamp': String(got!.headers['webhook-timestamp']),
      'webhook-signature': String(got!.headers['webhook-signature']),
    };
    const verifier = new Webhook(hook.secret);
    const payload = verifier.verify(got!.body, headers) as { id: string; type: string; data: unknown };
    expect(payload).toMatchObject({ type: 'account.created', data: account });
    // Unique beyond this database: the event's own random message id (webhook-delivery-rules.test.ts).
    expect(headers['webhook-id']).toMatch(/^evt_[0-9a-f-]{36}$/);
    // The body is the event as the feed shows it (toEvent), whatever way its JSON was put together.
    const row = await db
      .selectFrom('events')
      .select(['id', 'type', 'data', 'created_at'])
      .where('id', '=', Number(payload.id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(got!.body)).toEqual(toEvent(row as EventRow));
    expect(() => verifier.verify(got!.body.replace('wh-client', 'wh-clienT'), headers)).toThrow();
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      nextAttemptAt: null,
    });
  });

  it('500, 500, 200: three attempts of one message, then succeeded', async () => {
    const hook = await endpoint();
    receiver.answer(500, 500, 200);
    await newAccount();
    await deliverAll();
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect((await deliveries(hook.id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      responseStatus: 200,
    });
  });

  it('a receiver that never answers is timed out and retried on schedule, then failed; Retry sends it again', async () => {
    const hook = await endpoint();
    receiver.always('hang');
    await newAccount();
    await deliverUntilCaughtUp(db, crypto, hanging);
    expect(receiver.received).toHaveLength(3);
    const [failed] = await deliveries(hook.id, '?status=failed');
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 3,
      responseStatus: null,
      nextAttemptAt: null,
    });
    expect(failed!.lastError).toMatch(/no answer within 2 s/);
    receiver.always(200);
    const retried = await api('POST', `/api/v1/webhooks/${hook.id}/deliveries/${failed!.id}/retry`);
    expect(retried.json()).toMatchObject({ status: 'pending', attempts: 0 });
    await deliverAll();
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('a test event and a Retry are audited (each makes the server send a signed request)', async () => {
    const hook = await endpoint();
    const test = await api('POST', `/api/v1/webhooks/${hook.id}/test`);
    expect(test.statusCode, test.body).toBe(201);
    const retry = await api('POST', `/api/v1/webhooks/${hook.id}/deliveries/${test.json().id}/retry`);
    expect(retry.statusCode, retry.body).toBe(200);
    const audit = await api('GET', `/api/v1/audit?targetType=webhook&size=2`);
    expect(
      audit.json().content.map((e: { message: string; targetId: string }) => [e.message, e.targetId]),
    ).toEqual([
      [`Retried delivery ${test.json().id} of webhook endpoint ${receiver.url}`, hook.id],
      [`Sent a test event to webhook endpoint ${receiver.url}`, hook.id],
    ]);
  });

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(ctx.database.kind === 'postgres')(
    "a test event racing the endpoint's delete is 404, not a 500",
    async () => {
      const hook = await endpoint();
      const test = await deletedWhileWaiting(db, { table: 'webhook_endpoints', id: hook.id }, () =>
        api('POST', `/api/v1/webhooks/${hook.id}/test`),
      );
      expect(test.statusCode, test.body).toBe(404);
      expect(test.json().code).toBe('WEBHOOK_NOT_FOUND');
    },
  );

  it('Retry of a delivery waiting for its next retry sends it now, keeping its attempts; a running one is left', async () => {
    const hook = await endpoint();
    const hourly = { ...options, retrySchedule: [3600, 7200] };
    receiver.always(500);
    await newAccount();
    await deliverUntilCaughtUp(db, crypto, hourly);
    const [waiting] = await deliveries(hook.id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    expect(Date.parse(waiting!.nextAttemptAt as string)).toBeGreaterThan(Date.now() + 3_000_000);
    const retry = () => api('POST', `/api/v1/webhooks/${hook.id}/deliveries/${waiting!.id}/retry`);

    // An attempt running (claimed by a worker): Retry leaves it to that attempt.
    await sql`update webhook_deliveries set claimed_until = now() + interval '1 minute'
      where id = ${waiting!.id}::uuid`.execute(db);
    expect((await retry()).json()).toMatchObject({ attempts: 1, nextAttemptAt: waiting!.nextAttemptAt });
    await sql`update webhook_deliveries set claimed_until = null where id = ${waiting!.id}::uuid`.execute(db);

    // The receiver is mended: Retry makes it due now (before: it stayed an hour away), and it goes.
    receiver.always(200);
    const retried = (await retry()).json();
    expect(retried).toMatchObject({ status: 'pending', attempts: 1 });
    // Due now by the database's clock: an hour before the retry it was waiting for.
    expect(Date.parse(retried.nextAttemptAt)).toBeLessThan(
      Date.parse(waiting!.nextAttemptAt as string) - 3_000_000,
    );
    await deliverUntilCaughtUp(db, crypto, hourly);
    expect((await deliveries(hook.id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      responseStatus: 200,
    });
  });

  it("the endpoints list summarises the deliveries: the last attempted one and the finished ones' success rate", async () => {
    const hook = await endpoint();
    const list = async () => {
      const res = await api('GET', '/api/v1/webhooks');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().find((w: { id: string }) => w.id === hook.id);
    };
    expect(await list()).toMatchObject({ lastDeliveryAt: null, lastDeliveryStatus: null, successRate: null });
    receiver.always(200);
    await newAccount();
    await deliverAll();
    receiver.always(500);
    await newAccount();
    await deliverAll();
    const [failed, succeeded] = await deliveries(hook.id);
    expect([failed!.status, succeeded!.status]).toEqual(['failed', 'succeeded']);
    expect(await list()).toMatchObject({
      lastDeliveryAt: failed!.lastAttemptAt,
      lastDeliveryStatus: 'failed',
      successRate: 0.5,
    });
    // A queued one that was never attempted changes neither the last delivery nor the rate.
    await api('PATCH', `/api/v1/webhooks/${hook.id}`, { status: 'disabled' });
    await api('POST', `/api/v1/webhooks/${hook.id}/test`);
    expect(await list()).toMatchObject({ lastDeliveryStatus: 'failed', successRate: 0.5 });
  });

  it('a redirect is not followed', async () => {
    const hook = await endpoint();
    receiver.always(302);
    await newAccount();
    await deliverAll();
    expect(receiver.received.every((r) => r.headers['webhook-id'])).toBe(true);
    expect(receiver.received).toHaveLength(3);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'failed', responseStatus: 302 });
  });

  it('the deliveries list sorts by createdAt either way; another sort field is 400, never ignored', async () => {
    const hook = await endpoint();
    const first = (await api('POST', `/api/v1/webhooks/${hook.id}/test`)).json().id;
    const second = (await api('POST', `/api/v1/webhooks/${hook.id}/test`)).json().id;
    await sql`update webhook_deliveries set created_at = created_at - interval '1 minute' where id = ${first}::uuid`.execute(
      db,
    );
    const ids = async (query: string) => (await deliveries(hook.id, query)).map((d) => d.id);
    expect(await ids('')).toEqual([second, first]);
    expect(await ids('?sort=createdAt,desc')).toEqual([second, first]);
    expect(await ids('?sort=createdAt,asc')).toEqual([first, second]);
    const csv = await api('GET', `/api/v1/webhooks/${hook.id}/deliveries?format=csv&sort=createdAt,asc`);
    expect(
      csv.body
        .split('\n')
        .slice(1, 3)
        .map((line) => line.split(',')[0]),
    ).toEqual([first, second]);
    for (const sort of ['status', 'attempts,asc', 'createdAt,up']) {
      const res = await api('GET', `/api/v1/webhooks/${hook.id}/deliveries?sort=${sort}`);
      expect(res.statusCode, sort).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'querystring.sort' }],
      });
    }
  });

  it('only active endpoints subscribed to the type get it; the test event goes to one endpoint', async () => {
    const cards = await endpoint(['card.issued']);
    const off = await endpoint();
    await api('PATCH', `/api/v1/webhooks/${off.id}`, { status: 'disabled' });
    await newAccount();
    expect(await deliveries(cards.id)).toEqual([]);
    expect(await deliveries(off.id)).toEqual([]);
    // A disabled endpoint's deliveries wait until it is enabled again.
    const paused = await api('POST', `/api/v1/webhooks/${off.id}/test`);
    await deliverAll();
    expect(receiver.received).toHaveLength(0);
    await api('PATCH', `/api/v1/webhooks/${off.id}`, { status: 'active' });
    await deliverAll();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(off.id))[0]).toMatchObject({ id: paused.json().id, status: 'succeeded' });
    receiver.received.length = 0;
    const test = await api('POST', `/api/v1/webhooks/${cards.id}/test`);
    expect(test.statusCode).toBe(201);
    expect(test.json()).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
    await deliverAll();
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'webhook.test' });
    const feed = (await api('GET', '/api/v1/events?limit=500')).json();
    expect(feed.events.map((e: { type: string }) => e.type)).not.toContain('webhook.test');
  });

  it('at most perEndpoint attempts run per endpoint, so a slow one leaves slots to the others', async () => {
    const slow = await endpoint();
    const other = await startReceiver();
    try {
      const fast = await endpoint(['account.created'], other.url);
      receiver.always('hang');
      for (let i = 0; i < 5; i++) await newAccount();
      await waitForStreams(10);
      const limited = { ...hanging, perEndpoint: 2, maxInFlight: 4 };
      // The streams: two attempts at once each; the slow one's hang until the time limit, and then no
      // attempt starts (the other three wait in the stream, in order), while the fast one's lanes go on.
      await deliverDue(db, crypto, limited);
      const tried = async (id: string) => (await deliveries(id)).filter((d) => d.attempts === 1).length;
      expect(receiver.received).toHaveLength(2);
      expect(await tried(slow.id)).toBe(2);
      expect(other.received.length).toBeGreaterThanOrEqual(2);
      expect((await deliveries(fast.id, '?status=succeeded')).length).toBe(other.received.length);
      // The rows: two attempts at once for the slow endpoint again, whatever is due.
      expect((await deliveries(slow.id, '?status=pending')).length).toBe(2);
      await deliverDue(db, crypto, limited);
      expect(receiver.received).toHaveLength(4);
    } finally {
      await other.close();
    }
  });

  it('a claim records the attempts that ended, which then no longer count against perEndpoint', async () => {
    const hook = await endpoint();
    for (let i = 0; i < 3; i++) await api('POST', `/api/v1/webhooks/${hook.id}/test`);
    const limits = { limit: 4, perEndpoint: 2, leaseMs: 60_000 };
    const first = await claimDeliveries(db, limits);
    expect(first).toHaveLength(2);
    // Both still running: nothing more for this endpoint.
    expect(await claimDeliveries(db, limits)).toHaveLength(0);
    const ended = {
      id: first[0]!.id,
      attempts: first[0]!.attempts,
      outcome: { succeeded: true, responseStatus: 204, error: null, retryInSeconds: null, gone: false },
    };
    // A late answer of an older claim of the same delivery changes nothing.
    const stale = { ...ended, id: first[1]!.id, attempts: first[1]!.attempts - 1 };
    const next = await claimDeliveries(db, { ...limits, finished: [ended, stale] });
    expect(next).toHaveLength(1);
    expect(next[0]!.id).not.toBe(first[1]!.id);
    const byId = new Map((await deliveries(hook.id)).map((d) => [d.id, d]));
    expect(byId.get(first[0]!.id)).toMatchObject({ status: 'succeeded', responseStatus: 204 });
    expect(byId.get(first[1]!.id)).toMatchObject({ status: 'pending', responseStatus: null });
  });

  it("an endpoint's due retries never keep another endpoint's due rows from being claimed", async () => {
    // Twenty due rows of one endpoint (a dead receiver's retries), all due before the other's one row: more
    // than a claim of four looked at, when it took the oldest due rows of every endpoint together.
    const dead = await endpoint();
    for (let i = 0; i < 20; i++) await api('POST', `/api/v1/webhooks/${dead.id}/test`);
    const live = await endpoint();
    await api('POST', `/api/v1/webhooks/${live.id}/test`);
    const claimed = await claimDeliveries(db, { limit: 4, perEndpoint: 2, leaseMs: 60_000 });
    const of = (id: string) => claimed.filter((claim) => claim.endpoint_id === id).length;
    expect([of(dead.id), of(live.id)]).toEqual([2, 1]);
  });
});

/** Waits (bounded) until `n` events are readable by streams (see deliverAll). */
async function waitForStreams(n: number) {
  for (let i = 0; i < 3000; i++) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from webhook_endpoints w join events e on (e.xid, e.id) > (w.stream_xid, w.stream_id)
        and e.type = any(w.event_types) and e.xid < pg_snapshot_xmin(pg_current_snapshot())
      where w.status = 'active'`.execute(db);
    if (rows[0]!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${n} events not readable`);
}

describe('streams: each endpoint reads the outbox in commit order', () => {
  it('passes over the types it does not take, reads in windows and batches, sends each event once', async () => {
    const hook = await endpoint(['account.created']);
    // 300 events (more than a read's window and a batch), a third of them of a type the endpoint takes.
    const written = await inTransaction(db, (trx) =>
      insertEvents(
        trx,
        Array.from({ length: 300 }, (_, i) => ({
          type: i % 3 === 0 ? 'account.created' : 'card.issued',
          data: { n: i },
        })),
      ),
    );
    await deliverAll();
    // Sent a few at once (perEndpoint), so they may arrive in any order within a batch.
    const sent = receiver.received
      .map((r) => JSON.parse(r.body) as { id: string; data: { n: number } })
      .sort((a, b) => a.data.n - b.data.n);
    expect(sent.map((e) => e.data.n)).toEqual(Array.from({ length: 100 }, (_, i) => i * 3));
    expect(sent.map((e) => e.id)).toEqual(written.filter((_, i) => i % 3 === 0).map(String));
    expect((await deliveries(hook.id, '?status=succeeded&size=200')).length).toBe(100);
    expect(await deliveryBacklog(db, hook.id)).toBe(0);
  });

  it("a leased stream is nobody else's; a batch whose lease was taken over records nothing, and its events go again", async () => {
    const hook = await endpoint();
    await newAccount();
    await waitForStreams(1);
    const limits = { limit: 4, perEndpoint: 2, leaseMs: 60_000 };
    const runOut = () =>
      sql`update webhook_endpoints set stream_lease_until = now() where id = ${hook.id}::uuid`.execute(db);
    const first = await claimStreamBatch(db, limits);
    expect(first.streams.map((s) => s.id)).toEqual([hook.id]);
    expect((await claimStreamBatch(db, limits)).streams).toEqual([]);
    // The lease runs out (its server is slow, or dead): the next claim takes the stream from where it was.
    await runOut();
    const second = await claimStreamBatch(db, limits);
    expect(second.streams.map((s) => s.id)).toEqual([hook.id]);
    // A batch whose lease was taken before it read reads nothing, and sends nothing.
    expect(await deliverStream(db, crypto, options, first.streams[0]!, first.token)).toEqual({
      attempts: 0,
      more: false,
    });
    expect(receiver.received).toHaveLength(0);
    // One whose lease is taken while it is sending records nothing; the next batch sends its events again.
    const held = receiver.hold();
    const late = deliverStream(db, crypto, options, second.streams[0]!, second.token);
    await held.arrived;
    await runOut();
    const third = await claimStreamBatch(db, limits);
    expect(third.streams.map((s) => s.id)).toEqual([hook.id]);
    held.release();
    expect(await late).toEqual({ attempts: 1, more: false });
    expect(await deliveries(hook.id)).toEqual([]);
    expect(await deliverStream(db, crypto, options, third.streams[0]!, third.token)).toEqual({
      attempts: 1,
      more: false,
    });
    expect(receiver.received).toHaveLength(2);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(await deliveries(hook.id)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
    expect(await deliveryBacklog(db, hook.id)).toBe(0);
  });

  it("takes the streams furthest behind first: a crashed server's stream is not left behind the others", async () => {
    const hooks = [await endpoint(), await endpoint(), await endpoint(), await endpoint()];
    const crashed = hooks[3]!;
    // Its server died holding its lease: the lease has run out, but is still there.
    await sql`update webhook_endpoints set stream_lease = ${randomUUID()}::uuid,
      stream_lease_until = now() - interval '1 minute' where id = ${crashed.id}::uuid`.execute(db);
    // Each round one new event for all four, and a claim of two streams: every endpoint's turn comes every
    // other round. Before, the run-out lease sorted after every stream that had ended its lease, for ever.
    const limits = { limit: 2, perEndpoint: 2, leaseMs: 60_000 };
    const claimAndDeliver = async () => {
      const { token, streams } = await claimStreamBatch(db, limits);
      expect(streams).toHaveLength(2);
      for (const stream of streams) await deliverStream(db, crypto, options, stream, token);
    };
    const delivered = async () => {
      const { rows } = await sql<{ endpoint_id: string; n: number }>`select endpoint_id, count(*)::int as n
        from webhook_deliveries where status = 'succeeded' group by endpoint_id`.execute(db);
      return hooks.map((hook) => rows.find((row) => row.endpoint_id === hook.id)?.n ?? 0);
    };
    for (let round = 1; round <= 6; round++) {
      await newAccount();
      await waitForStreams(4);
      await claimAndDeliver();
      // No endpoint is more than the one event of this round behind.
      for (const n of await delivered()) expect(n).toBeGreaterThanOrEqual(round - 1);
    }
    // Two streams are one event behind after a round: one more claim takes those two.
    await claimAndDeliver();
    expect(await delivered()).toEqual([6, 6, 6, 6]);
  });
});

describe('the worker of a running server', () => {
  it('delivers on its own (WEBHOOK_POLL_INTERVAL_MS)', async () => {
    const hook = await endpoint();
    const running = await buildTestApp(ctx.database, {
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    try {
      await newAccount();
      // Polls for the worker's delivery (bounded only by a generous limit: a loaded machine is slow, not wrong).
      await expect
        .poll(async () => (await deliveries(hook.id))[0]?.status, { timeout: 100_000 })
        .toBe('succeeded');
      expect(receiver.received).toHaveLength(1);
    } finally {
      await running.close();
    }
  });
});
