import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { inTransaction } from '../../db/transaction';
import { deliverUntilCaughtUp } from './deliver-until-caught-up.test-support';
import { startDeliveryWorker } from './delivery-worker';
import { insertEvents, pruneEvents } from './events.repository';
import { startReceiver } from './webhook-receiver.test-support';
import { webhookTestContext } from './webhook-test-context.test-support';

const { ctx, db, crypto } = await webhookTestContext();
const RETENTION_DAYS = 30;

async function api(method: 'POST' | 'PATCH', url: string, payload: object) {
  const res = await ctx.app.inject({ method, url, headers: bearer(ctx.tokens.ADMIN), payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as { id: string };
}

/** Events written now, then dated `days` ago: past retention, as if written then. */
async function oldEvents(types: string[], days = RETENTION_DAYS + 10): Promise<string[]> {
  const ids = await inTransaction(db, (trx) =>
    insertEvents(
      trx,
      types.map((type, n) => ({ type: type as 'points.adjusted', data: { n } })),
    ),
  );
  await db
    .updateTable('events')
    .set({ created_at: new Date(Date.now() - days * 86_400_000) })
    .where('id', 'in', ids)
    .execute();
  return ids.map(String);
}

async function remaining(ids: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('events')
    .select('id')
    .where('id', 'in', ids.map(Number))
    .orderBy('id')
    .execute();
  return rows.map((row) => String(row.id));
}

describe('event retention never takes what an active endpoint still has to get', () => {
  it('keeps old events an active stream has not reached, prunes them once it has, or once disabled', async () => {
    const receiver = await startReceiver();
    try {
      const taken = await api('POST', '/api/v1/webhooks', {
        url: receiver.url,
        eventTypes: ['points.adjusted'],
      });
      const [adjusted, other, recent] = await oldEvents([
        'points.adjusted',
        'account.created',
        'points.adjusted',
      ]);
      // The third is recent: retention never takes it, whoever has read it.
      await db
        .updateTable('events')
        .set({ created_at: new Date() })
        .where('id', '=', Number(recent))
        .execute();

      // Only the type no active endpoint takes goes; the endpoint's two stay for its stream.
      expect(await pruneEvents(db, RETENTION_DAYS)).toBe(1);
      expect(await remaining([adjusted!, other!, recent!])).toEqual([adjusted, recent]);

      // Delivered: the stream has passed it, so the old one goes now (with its delivery row).
      await deliverUntilCaughtUp(db, crypto, { timeoutMs: 30_000, allowPrivate: true, retrySchedule: [0] });
      expect(receiver.received.map((hook) => (JSON.parse(hook.body) as { id: string }).id)).toEqual([
        adjusted,
        recent,
      ]);
      expect(await pruneEvents(db, RETENTION_DAYS)).toBe(1);
      expect(await remaining([adjusted!, recent!])).toEqual([recent]);
      const deliveries = await db.selectFrom('webhook_deliveries').select('event_id').execute();
      expect(deliveries.map((row) => String(row.event_id))).toEqual([recent]);

      // A disabled endpoint's stream does not move, and enabled again starts from then: nothing to keep.
      const [unread] = await oldEvents(['points.adjusted']);
      expect(await pruneEvents(db, RETENTION_DAYS)).toBe(0);
      await api('PATCH', `/api/v1/webhooks/${taken.id}`, { status: 'disabled' });
      expect(await pruneEvents(db, RETENTION_DAYS)).toBe(1);
      expect(await remaining([unread!])).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('the delivery worker prunes a backlog of old events whole', () => {
  it('prunes batch after batch, not one batch an hour', async () => {
    // 2,500 old events no endpoint takes: three statements' worth (1,000 each).
    const ids = await oldEvents(Array.from({ length: 2500 }, () => 'account.created'));
    const worker = startDeliveryWorker(
      db,
      crypto,
      {
        intervalMs: 20,
        timeoutMs: 30_000,
        allowPrivate: true,
        retrySchedule: [0],
        retentionDays: RETENTION_DAYS,
      },
      ctx.app.log,
    );
    try {
      // Polls for the condition; before, the first batch went and the rest waited an hour.
      await expect.poll(async () => (await remaining(ids)).length, { timeout: 60_000 }).toBe(0);
    } finally {
      await worker.stop();
    }
  });
});
