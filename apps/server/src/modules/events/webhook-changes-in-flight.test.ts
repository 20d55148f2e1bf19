import { setTimeout as pause } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { deliverUntilCaughtUp } from './deliver-until-caught-up.test-support';
import { claimStreamBatch, deliverStream } from './stream-batch';
import { type Receiver, startReceiver } from './webhook-receiver.test-support';
import { adminApi, receiverPerTest, webhookTestContext } from './webhook-test-context.test-support';

/**
 * An endpoint changed (PATCH) while a worker holds its stream's lease: between the claim and the read, or
 * while the batch's attempts are in flight. The batch records what it sent; the stream never goes back.
 */
const { ctx, db, crypto } = await webhookTestContext();
const options = { timeoutMs: 30_000, allowPrivate: true, retrySchedule: [0, 0] };
const deliverAll = () => deliverUntilCaughtUp(db, crypto, options);

const receivers = receiverPerTest(db);

const api = adminApi(ctx);

const endpoint = async (): Promise<string> =>
  (await api('POST', '/api/v1/webhooks', { url: receivers.current.url, eventTypes: ['account.created'] })).id;
const patch = (id: string, change: object) => api('PATCH', `/api/v1/webhooks/${id}`, change);

let accounts = 0;
/** An account (one account.created event); client ids are unique per test. */
async function account(name: string): Promise<string> {
  const clientId = `${name}-${accounts++}`;
  await api('POST', '/api/v1/accounts', { clientId });
  return clientId;
}

/** The client ids of the accounts a receiver was sent, in the order they came. */
const sent = (to: Receiver) =>
  to.received.map((r) => (JSON.parse(r.body) as { data: { clientId: string } }).data.clientId);

/**
 * Leases the endpoint's stream as a worker would. On PostgreSQL a stream reads only transactions older
 * than every running one on the server, so this waits (bounded) until the event is readable.
 */
async function claim() {
  for (let round = 0; round < 3000; round++) {
    const batch = await claimStreamBatch(db, { limit: 1, perEndpoint: 2, leaseMs: 60_000 });
    if (batch.streams.length > 0) return { stream: batch.streams[0]!, token: batch.token };
    await pause(20);
  }
  throw new Error('no stream to claim');
}

describe('an endpoint changed while its stream is leased', () => {
  it('disabled and enabled again while a batch is sending: what was written in between is not sent', async () => {
    const id = await endpoint();
    const before = await account('before-disable');
    const { stream, token } = await claim();
    const held = receivers.current.hold(200);
    const batch = deliverStream(db, crypto, options, stream, token);
    await held.arrived;
    await patch(id, { status: 'disabled' });
    await account('while-disabled');
    await patch(id, { status: 'active' });
    held.release();
    expect(await batch).toMatchObject({ attempts: 1 });
    await deliverAll();
    // Before: the batch moved the stream back to its own position, and 'while-disabled' was sent.
    expect(sent(receivers.current)).toEqual([before]);
    // The receiver got it: the batch's delivery is recorded.
    const deliveries = await api('GET', `/api/v1/webhooks/${id}/deliveries`);
    expect(deliveries.content).toMatchObject([{ status: 'succeeded', attempts: 1, responseStatus: 200 }]);
  });

  it('disabled and enabled again between the claim and its read: the batch reads from where the stream is', async () => {
    const id = await endpoint();
    await account('before-disable');
    const { stream, token } = await claim();
    await patch(id, { status: 'disabled' });
    await account('while-disabled');
    await patch(id, { status: 'active' });
    expect(await deliverStream(db, crypto, options, stream, token)).toMatchObject({ attempts: 0 });
    await deliverAll();
    // As with no claim at all: enabled again, the stream starts from then, and 'before-disable' had not
    // been handed over when it was disabled. Before: the batch read from the position it was claimed at.
    expect(sent(receivers.current)).toEqual([]);
    expect((await api('GET', `/api/v1/webhooks/${id}/deliveries`)).content).toEqual([]);
  });

  it('a URL changed while a batch is sending: its events go once, a failed one is retried at the new URL', async () => {
    const id = await endpoint();
    const moved = await startReceiver();
    try {
      const before = await account('before-move');
      const { stream, token } = await claim();
      const held = receivers.current.hold(500);
      const batch = deliverStream(db, crypto, options, stream, token);
      await held.arrived;
      await patch(id, { url: moved.url });
      const after = await account('after-move');
      held.release();
      await batch;
      await deliverAll();
      // The batch's attempt went to the URL it had read; its retry and every later event go to the new one,
      // and the batch's position holds: nothing is sent twice to the new URL, nothing is skipped.
      expect(sent(receivers.current)).toEqual([before]);
      expect(sent(moved).sort()).toEqual([after, before].sort());
      const deliveries = await api('GET', `/api/v1/webhooks/${id}/deliveries`);
      expect(deliveries.content).toHaveLength(2);
      expect(deliveries.content).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ status: 'succeeded', attempts: 2 }),
          expect.objectContaining({ status: 'succeeded', attempts: 1 }),
        ]),
      );
    } finally {
      await moved.close();
    }
  });
});
