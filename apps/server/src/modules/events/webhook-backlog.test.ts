import { WEBHOOK_BACKLOG_CAP, type WebhookListItem } from '@loyalty/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction';
import { metricValue } from '../../plugins/metrics.test-support';
import { deliverUntilCaughtUp } from './deliver-until-caught-up.test-support';
import { insertEvents } from './events.repository';
import { deliveryBacklog } from './streams.repository';
import { adminApi, receiverPerTest, webhookTestContext } from './webhook-test-context.test-support';
import { listWebhooks } from './webhooks.repository';

const { ctx, db, crypto } = await webhookTestContext();
const options = { timeoutMs: 30_000, allowPrivate: true, retrySchedule: [0] };

const receivers = receiverPerTest(db);

const api = adminApi(ctx);

async function endpoint(eventTypes: string[]): Promise<string> {
  return (await api('POST', '/api/v1/webhooks', { url: receivers.current.url, eventTypes })).id;
}

/** The endpoint's row of `GET /api/v1/webhooks`. */
async function listed(id: string): Promise<WebhookListItem> {
  const list = (await api('GET', '/api/v1/webhooks')) as WebhookListItem[];
  return list.find((w) => w.id === id)!;
}

/** Events of these types, written in one transaction; returns when they were written. */
async function write(types: string[]): Promise<string> {
  const [first] = await inTransaction(db, (trx) =>
    insertEvents(
      trx,
      types.map((type, n) => ({ type, data: { n } })),
    ),
  );
  const row = await db
    .selectFrom('events')
    .select('created_at')
    .where('id', '=', first!)
    .executeTakeFirstOrThrow();
  return row.created_at.toISOString();
}

describe('the backlog of the endpoints list', () => {
  it('counts the events of its types its stream has not reached and its due deliveries; null when disabled', async () => {
    const hook = await endpoint(['account.created']);
    expect(await listed(hook)).toMatchObject({ backlog: 0, backlogSince: null });
    // The test event is a delivery row, due at once: it counts, but is no event of the stream.
    await api('POST', `/api/v1/webhooks/${hook}/test`);
    expect(await listed(hook)).toMatchObject({ backlog: 1, backlogSince: null });

    const since = await write(['account.created', 'card.issued', 'account.created', 'card.issued']);
    expect(await listed(hook)).toMatchObject({ backlog: 3, backlogSince: since });
    expect(await deliveryBacklog(db, hook)).toBe(3);
    // An endpoint added later starts from then; a card.issued counts for it, not for the first one's.
    const later = await endpoint(['account.created', 'card.issued']);
    expect(await listed(later)).toMatchObject({ backlog: 0, backlogSince: null });
    await write(['card.issued']);
    expect((await listed(later)).backlog).toBe(1);
    expect((await listed(hook)).backlog).toBe(3);

    await api('PATCH', `/api/v1/webhooks/${hook}`, { status: 'disabled' });
    expect(await listed(hook)).toMatchObject({ status: 'disabled', backlog: null, backlogSince: null });
    expect(await deliveryBacklog(db, hook)).toBe(0);
    // Enabled again, its stream starts from then: what was written meanwhile is not its to get, and only
    // the test event, a row that waited, is left.
    await write(['account.created']);
    await api('PATCH', `/api/v1/webhooks/${hook}`, { status: 'active' });
    expect(await listed(hook)).toMatchObject({ backlog: 1, backlogSince: null });
  });

  it('is 0 once delivery has caught up; a retry counts once it is due', async () => {
    const hook = await endpoint(['account.created']);
    await write(['account.created', 'account.created']);
    expect((await listed(hook)).backlog).toBe(2);
    await deliverUntilCaughtUp(db, crypto, options);
    expect(receivers.current.received).toHaveLength(2);
    expect(await listed(hook)).toMatchObject({ backlog: 0, backlogSince: null });

    // A failed attempt waits for its retry in an hour: not behind until then.
    receivers.current.always(500);
    await write(['account.created']);
    await deliverUntilCaughtUp(db, crypto, { ...options, retrySchedule: [3600] });
    expect(receivers.current.received).toHaveLength(3);
    expect(await listed(hook)).toMatchObject({ backlog: 0, lastDeliveryStatus: 'pending' });
    await sql`update webhook_deliveries set next_attempt_at = now()
      where endpoint_id = ${hook}::uuid and status = 'pending'`.execute(db);
    expect(await listed(hook)).toMatchObject({ backlog: 1, backlogSince: null });
  });

  it("the last delivery and the success rate are over the endpoint's latest deliveries only", async () => {
    const hook = await endpoint(['account.created']);
    // One that fails for good (no retry), then two that succeed.
    receivers.current.always(500);
    await write(['account.created']);
    await deliverUntilCaughtUp(db, crypto, { ...options, retrySchedule: [] });
    receivers.current.always(200);
    await write(['account.created', 'account.created']);
    await deliverUntilCaughtUp(db, crypto, options);
    const summary = async (window: number) => {
      const row = (await listWebhooks(db, WEBHOOK_BACKLOG_CAP, window)).find((w) => w.id === hook)!;
      return { rate: row.successRate, last: row.lastDeliveryStatus };
    };
    expect(await summary(3)).toEqual({ rate: 2 / 3, last: 'succeeded' });
    // The latest two: the failed one is older than the window.
    expect(await summary(2)).toEqual({ rate: 1, last: 'succeeded' });
    // The API's window is the contract's.
    expect((await listed(hook)).successRate).toBe(2 / 3);
  });

  it('is on /metrics: a series per active endpoint, none for a disabled one', async () => {
    const hook = await endpoint(['account.created']);
    const other = await endpoint(['card.issued']);
    await write(['account.created', 'account.created', 'card.issued']);
    const series = (id: string) => `loyalty_webhook_backlog_events{endpoint="${id}"}`;
    const scrape = async () => (await ctx.app.inject({ url: '/metrics' })).body;

    let body = await scrape();
    expect(body).toContain(`${series(hook)} `);
    expect(metricValue(body, series(hook))).toBe(2);
    expect(metricValue(body, series(other))).toBe(1);
    await api('PATCH', `/api/v1/webhooks/${other}`, { status: 'disabled' });
    body = await scrape();
    expect(metricValue(body, series(hook))).toBe(2);
    expect(body).not.toContain(series(other));
  });

  it('counts up to the cap (the events, the due deliveries, and both together); deliveryBacklog counts all', async () => {
    const hook = await endpoint(['account.created']);
    const since = await write(['account.created', 'account.created', 'account.created', 'account.created']);
    await api('POST', `/api/v1/webhooks/${hook}/test`);
    await api('POST', `/api/v1/webhooks/${hook}/test`);
    const capped = async (cap: number) => (await listWebhooks(db, cap)).find((w) => w.id === hook)!;
    expect(await capped(2)).toMatchObject({ backlog: 2, backlogSince: since });
    expect((await capped(5)).backlog).toBe(5);
    expect((await capped(6)).backlog).toBe(6);
    expect((await capped(100)).backlog).toBe(6);
    expect(await deliveryBacklog(db, hook)).toBe(6);

    // The API's cap is the contract's: past it, the list says WEBHOOK_BACKLOG_CAP ("at least").
    await sql`insert into events (type, data)
      select 'account.created', jsonb_build_object('n', n)
      from generate_series(1, ${WEBHOOK_BACKLOG_CAP}::int) as n`.execute(db);
    expect(await listed(hook)).toMatchObject({ backlog: WEBHOOK_BACKLOG_CAP, backlogSince: since });
    expect(await deliveryBacklog(db, hook)).toBe(WEBHOOK_BACKLOG_CAP + 6);
  });
});
