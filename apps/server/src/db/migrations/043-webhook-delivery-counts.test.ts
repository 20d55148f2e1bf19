import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helper';
import { migrateToLatest } from '../migrate';

// A database as it was before migration 043: deliveries already written, no counters.
const database = await openTestDatabase({ skipMigrations: ['043-webhook-delivery-counts'] });
const db = database.db;

describe('migration 043 (webhook delivery counters)', () => {
  it('counts the deliveries already there per endpoint and status, then keeps counting', async () => {
    const endpoints = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'];
    for (const id of endpoints) {
      await sql`insert into webhook_endpoints (id, url, event_types, status, secret_cipher)
        values (${id}::uuid, 'https://example.com/', '{account.created}', 'active', 'x')`.execute(db);
    }
    await sql`insert into events (type, data) select 'account.created', '{}' from generate_series(1, 5)`.execute(
      db,
    );
    await sql`insert into webhook_deliveries (endpoint_id, event_id, status)
      select ${endpoints[0]}::uuid, id, case when id % 2 = 0 then 'failed' else 'succeeded' end from events`.execute(
      db,
    );
    await sql`insert into webhook_deliveries (endpoint_id, event_id, status)
      select ${endpoints[1]}::uuid, id, 'pending' from events where id <= 2`.execute(db);
    await migrateToLatest(db);
    const counters = () =>
      sql<{ endpoint_id: string; status: string; n: number }>`
        select endpoint_id, status, sum(n)::int as n from webhook_delivery_counts
        group by endpoint_id, status having sum(n) <> 0 order by 1, 2`
        .execute(db)
        .then((result) => result.rows);
    expect(await counters()).toEqual([
      { endpoint_id: endpoints[0], status: 'failed', n: 2 },
      { endpoint_id: endpoints[0], status: 'succeeded', n: 3 },
      { endpoint_id: endpoints[1], status: 'pending', n: 2 },
    ]);
    await sql`update webhook_deliveries set status = 'succeeded' where endpoint_id = ${endpoints[1]}::uuid`.execute(
      db,
    );
    expect(await counters()).toEqual([
      { endpoint_id: endpoints[0], status: 'failed', n: 2 },
      { endpoint_id: endpoints[0], status: 'succeeded', n: 3 },
      { endpoint_id: endpoints[1], status: 'succeeded', n: 2 },
    ]);
    await sql`truncate webhook_deliveries`.execute(db);
    expect(await counters()).toEqual([]);
    await database.close();
  });
});
