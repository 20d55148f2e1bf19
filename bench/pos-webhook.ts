import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/connection';
import { deliveryBacklog } from '../apps/server/src/modules/events/streams.repository';
import { newSigningSecret } from '../apps/server/src/modules/events/webhook-sender';
import { createKeyCrypto } from '../apps/server/src/modules/pos-keys/key-crypto';

/**
 * `BENCH_WEBHOOK=1 npm run bench:pos`: the accrual phase with one active webhook endpoint (issue 12),
 * between two without; a local receiver answers 200 at once and notes when each event arrived, so the
 * delivery lag (arrival − the event's commit-time `created_at`) comes out as p50/p99.
 */
export async function startBenchReceiver() {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // `webhook-id` is `evt_<the event's message id>`: the lag is looked up by it.
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, Date.now());
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** An endpoint for points.accrued, stored as the server stores one (its secret under POS_KEY_SECRET). */
export async function addEndpoint(db: Db, secretHex: string, url: string): Promise<string> {
  const id = randomUUID();
  const cipher = createKeyCrypto(secretHex, 'webhook').encrypt(newSigningSecret(), id);
  await db
    .insertInto('webhook_endpoints')
    .values({
      id,
      url,
      description: 'bench',
      event_types: ['points.accrued'],
      status: 'active',
      secret_cipher: cipher,
    })
    .execute();
  return id;
}

export async function disableEndpoint(db: Db, id: string) {
  await db.updateTable('webhook_endpoints').set({ status: 'disabled' }).where('id', '=', id).execute();
}

/** Waits (bounded) until the endpoint's deliveries are done, then the lag of each delivered event. */
export async function deliveryLag(db: Db, endpointId: string, arrivals: Map<string, number>) {
  for (let i = 0; i < 600; i++) {
    if ((await deliveryBacklog(db, endpointId)) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const events = await sql<{ id: string; created_at: Date; status: string }>`
    select 'evt_' || e.message_id as id, e.created_at, d.status
    from webhook_deliveries d join events e on e.id = d.event_id
    where d.endpoint_id = ${endpointId}::uuid`.execute(db);
  const lags = events.rows
    .filter((e) => arrivals.has(e.id))
    .map((e) => arrivals.get(e.id)! - e.created_at.getTime())
    .sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? NaN;
  return {
    events: events.rows.length,
    delivered: lags.length,
    failed: events.rows.filter((e) => e.status === 'failed').length,
    p50: at(0.5),
    p99: at(0.99),
  };
}
