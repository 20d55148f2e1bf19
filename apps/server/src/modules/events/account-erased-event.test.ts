import { describe, expect, it } from 'vitest';
import { deliverUntilCaughtUp } from './deliver-until-caught-up.test-support';
import { startReceiver } from './webhook-receiver.test-support';
import { adminApi, receiverPerTest, webhookTestContext } from './webhook-test-context.test-support';

const { ctx, db, crypto } = await webhookTestContext();
const api = adminApi(ctx);
const options = { timeoutMs: 30_000, allowPrivate: true, retrySchedule: [0, 0] };
const receiver = receiverPerTest(db);

describe('account.erased', () => {
  it('an erasure tells the feed and the endpoints taking the type, with the account as the admin API shows it now', async () => {
    const other = await startReceiver();
    try {
      await api('POST', '/api/v1/webhooks', { url: receiver.current.url, eventTypes: ['account.erased'] });
      // Subscribed to the account's other events only: gets none of the erasure.
      await api('POST', '/api/v1/webhooks', {
        url: other.url,
        eventTypes: ['account.created', 'card.blocked'],
      });
      const clientId = 'erase-me-4711';
      const account = await api('POST', '/api/v1/accounts', { clientId });
      const erased = await api('POST', `/api/v1/accounts/${account.id}/erase`, { confirm: clientId });
      expect(erased.clientId).toMatch(/^erased-/);
      // No card to block: before, the erasure wrote no event at all.
      await deliverUntilCaughtUp(db, crypto, options);
      const feed = await api('GET', '/api/v1/events?type=account.erased&limit=500');
      const event = feed.events.find((e: { data: { id: string } }) => e.data.id === account.id);
      expect(event).toMatchObject({ type: 'account.erased', data: erased });
      expect(JSON.stringify(event)).not.toContain(clientId);
      expect(receiver.current.received.map((r) => JSON.parse(r.body))).toEqual([event]);
      expect(other.received.map((r) => JSON.parse(r.body).type)).toEqual(['account.created']);
      // The account as the admin API shows it after the erasure.
      expect(await api('GET', `/api/v1/accounts/${account.id}`)).toEqual(event.data);
    } finally {
      await other.close();
    }
  });
});
