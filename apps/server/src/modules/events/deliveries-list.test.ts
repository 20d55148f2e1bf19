import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { deliverUntilCaughtUp } from './deliver-until-caught-up.test-support';
import { pruneEvents } from './events.repository';
import { adminApi, receiverPerTest, webhookTestContext } from './webhook-test-context.test-support';

const { ctx, db, crypto } = await webhookTestContext();
const receiver = receiverPerTest(db);
const api = adminApi(ctx);
const deliverAll = () =>
  deliverUntilCaughtUp(db, crypto, { timeoutMs: 30_000, allowPrivate: true, retrySchedule: [0, 0] });

type Status = 'pending' | 'succeeded' | 'failed';
const STATUSES = [undefined, 'pending', 'succeeded', 'failed'] as const;

/** An endpoint's deliveries of a status (or all), as the database lists them: newest first. */
async function stored(webhookId: string, status?: Status) {
  const rows = await sql<{ id: string }>`
    select id from webhook_deliveries
    where endpoint_id = ${webhookId}::uuid and (${status ?? null}::text is null or status = ${status ?? null})
    order by created_at desc, id desc`.execute(db);
  return rows.rows.map((row) => row.id);
}

/** Every page of the drawer, two at a time, and the total each page gave. */
async function drawer(webhookId: string, status?: Status) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 0; ; page++) {
    const query = `?page=${page}&size=2${status ? `&status=${status}` : ''}`;
    const body = await api('GET', `/api/v1/webhooks/${webhookId}/deliveries${query}`);
    totals.add(body.totalElements);
    ids.push(...(body.content as Array<{ id: string }>).map((d) => d.id));
    if (body.content.length < 2) return { ids, totals: [...totals] };
  }
}

/** The counters (summed over their shards, zero keys left out) and the deliveries' own counts agree. */
async function expectCountersExact() {
  const counters = await sql<{ key: string; n: number }>`
    select endpoint_id || ' ' || status as key, sum(n)::int as n from webhook_delivery_counts
    group by endpoint_id, status having sum(n) <> 0 order by 1`.execute(db);
  const counted = await sql<{ key: string; n: number }>`
    select endpoint_id || ' ' || status as key, count(*)::int as n from webhook_deliveries
    group by endpoint_id, status order by 1`.execute(db);
  expect(counters.rows).toEqual(counted.rows);
}

/** The ids of the drawer's CSV export, in its order. */
async function exported(webhookId: string, status?: Status) {
  const res = await ctx.app.inject({
    url: `/api/v1/webhooks/${webhookId}/deliveries?format=csv${status ? `&status=${status}` : ''}`,
    headers: bearer(ctx.tokens.ADMIN),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.body
    .split('\n')
    .slice(1)
    .filter((line) => line.length > 0)
    .map((line) => line.split(',')[0]);
}

async function expectDrawerExact(webhookId: string) {
  for (const status of STATUSES) {
    const expected = await stored(webhookId, status);
    expect(await drawer(webhookId, status), `status ${status ?? 'any'}`).toEqual({
      ids: expected,
      totals: [expected.length],
    });
    expect(await exported(webhookId, status), `export of status ${status ?? 'any'}`).toEqual(expected);
  }
}

describe("an endpoint's deliveries drawer", () => {
  it('pages and totals of each status stay exact through sends, outcomes, Retry, retention and deletion', async () => {
    const endpoint = async () =>
      (await api('POST', '/api/v1/webhooks', { url: receiver.current.url, eventTypes: ['account.created'] }))
        .id as string;
    const [a, b] = [await endpoint(), await endpoint()];
    let clients = 0;
    const accounts = (n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          api('POST', '/api/v1/accounts', { clientId: `dl-client-${clients++}` }),
        ),
      );

    // Failed for good (three attempts each, the outcomes updating the rows), then delivered at once.
    receiver.current.always(500);
    await accounts(2);
    await deliverAll();
    receiver.current.always(200);
    await accounts(3);
    await deliverAll();
    // A Retry moves a failed delivery back to pending.
    const [failed] = await stored(a, 'failed');
    await api('POST', `/api/v1/webhooks/${a}/deliveries/${failed}/retry`);
    expect((await stored(a, 'pending')).length).toBe(1);
    expect((await stored(a, 'failed')).length).toBe(1);
    expect((await stored(a)).length).toBe(5);
    await expectCountersExact();
    await expectDrawerExact(a);
    await expectDrawerExact(b);

    // Which way the totals are taken: a shard row no delivery has moves them (the counters), not the pages.
    await sql`insert into webhook_delivery_counts (endpoint_id, status, shard, n)
      values (${a}::uuid, 'failed', -1, 5)`.execute(db);
    try {
      const total = async (query: string) =>
        (await api('GET', `/api/v1/webhooks/${a}/deliveries${query}`)).totalElements;
      expect(await total('')).toBe(10);
      expect(await total('?status=failed')).toBe(6);
      expect(await total('?status=succeeded')).toBe(3);
      expect(await total('?status=pending')).toBe(1);
    } finally {
      await sql`delete from webhook_delivery_counts where shard = -1`.execute(db);
    }

    // Retention takes old events with their deliveries (a cascade): all but the pending one's.
    await sql`update events set created_at = now() - interval '400 days'`.execute(db);
    expect(await pruneEvents(db, 1)).toBeGreaterThan(0);
    expect((await stored(a)).length).toBe(1);
    await expectCountersExact();
    await expectDrawerExact(a);

    // Deleting an endpoint takes its deliveries and nets its counters to nothing.
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/webhooks/${b}`,
      headers: { authorization: `Bearer ${ctx.tokens.ADMIN}` },
    });
    expect(await stored(b)).toEqual([]);
    await expectCountersExact();
  });

  it('an endpoint without deliveries has none of any status', async () => {
    const { id } = await api('POST', '/api/v1/webhooks', {
      url: receiver.current.url,
      eventTypes: ['card.issued'],
    });
    for (const status of STATUSES) expect(await drawer(id, status)).toEqual({ ids: [], totals: [0] });
  });
});
