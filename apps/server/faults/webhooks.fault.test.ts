import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../src/modules/events/webhook-receiver.test-support';
import { call, setUpProgramme } from './support/api';
import { freshDatabase, query } from './support/database';
import { verifyLedger } from './support/ledger';
import { startAccrualLoad } from './support/load';
import { pollUntil } from './support/poll';
import { type ServerProcess, spawnServer, stopServers, waitForReady } from './support/server-process';

/**
 * Webhook deliveries across server deaths (issue 12): at least once, never lost. Ports 3360–3369.
 * A delivery claimed by a server that dies is due again when its lease ends (2 × the time limit + 5 s).
 */
const ADMIN = { username: 'admin', password: 'fault-admin-password' };
const database = await freshDatabase();
const servers: ServerProcess[] = [];
const env = {
  ADMIN_PASSWORD: ADMIN.password,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  // Retries at once, and enough of them that a receiver failing 20% of the time never exhausts them.
  WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 20 }, () => '0').join(','),
};
const receiver = await startReceiver(() => (Math.random() < 0.2 ? 500 : 200));
afterAll(async () => {
  try {
    await stopServers(servers);
  } finally {
    await receiver.close();
    await database.drop();
  }
});

function start(port: number) {
  const server = spawnServer({ port, databaseUrl: database.url, env });
  servers.push(server);
  return server;
}

const deliveryStates = () =>
  query<{ status: string; n: number }>(
    database.url,
    'select status, count(*)::int as n from webhook_deliveries group by status',
  );

describe('webhook deliveries when servers die', () => {
  let token = '';
  let apiKey = '';
  let card = '';

  it('kill -9 mid-delivery: another server delivers the event', async () => {
    const victim = start(3360);
    await waitForReady(victim);
    const programme = await setUpProgramme(victim.url, ADMIN);
    ({ token, apiKey } = programme);
    card = programme.cards[0]!;
    const hook = await call(victim.url, 'POST', '/api/v1/webhooks', {
      token,
      body: { url: receiver.url, eventTypes: ['points.accrued'] },
    });
    expect(hook.status).toBe(201);
    receiver.answer('hang');
    const accrual = await call(victim.url, 'POST', '/pos/api/v1/accruals', {
      apiKey,
      body: {
        operationId: 'crash-1',
        cardNumber: card,
        receipt: { receiptId: 'r', items: [{ sku: 'S', quantity: 1, price: 10 }] },
      },
    });
    expect(accrual.status).toBe(201);
    await pollUntil(() => receiver.received.length >= 1, { attempts: 600, what: 'the first attempt' });
    await victim.kill('SIGKILL');

    const survivor = start(3361);
    await waitForReady(survivor);
    await pollUntil(async () => (await deliveryStates()).some((s) => s.status === 'succeeded'), {
      attempts: 600,
      what: 'the delivery taken over and succeeded',
    });
    expect(await deliveryStates()).toEqual([{ status: 'succeeded', n: 1 }]);
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('1,000 POS accruals on two servers, a receiver failing 20%: every event delivered', async () => {
    const other = start(3362);
    await waitForReady(other);
    const urls = servers.filter((s) => s.alive()).map((s) => s.url);
    expect(urls).toHaveLength(2);
    const load = startAccrualLoad({
      servers: () => urls,
      apiKey,
      cardNumber: card,
      clients: 8,
      maxPerClient: 125,
    });
    await pollUntil(() => load.sent.length >= 1000, { attempts: 3000, what: '1,000 accruals sent' });
    await load.stop();
    expect(load.acknowledged()).toBe(1000);

    const events = await query<{ id: string; message_id: string }>(
      database.url,
      `select id::text, message_id::text from events where type = 'points.accrued'`,
    );
    expect(events).toHaveLength(1001);
    await pollUntil(
      async () => {
        const states = await deliveryStates();
        return states.length === 1 && states[0]!.status === 'succeeded' && states[0]!.n === 1001;
      },
      {
        attempts: 1200,
        what: 'every delivery succeeded',
        detail: () => JSON.stringify(receiver.received.length),
      },
    );
    // `webhook-id` is `evt_<the event's message id>` (the same on every server and attempt).
    const delivered = new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
    expect(events.filter((e) => !delivered.has(`evt_${e.message_id}`))).toEqual([]);
    // Every accrual of this file, written by servers one of which was killed (-9) mid-delivery: the ledger holds.
    const ledger = verifyLedger(database.url);
    expect(ledger.ok, ledger.output).toBe(true);
    const failures = receiver.received.length - delivered.size;
    console.info(
      `webhooks: ${events.length} events, ${receiver.received.length} requests (${failures} repeats)`,
    );
  });
});
