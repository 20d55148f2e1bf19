import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import type { Database } from '../apps/server/src/db/schema';
import { withAdminClient } from '../apps/server/test/leftover-databases';
import { benchAdminApp } from './bench-admin-app';

/**
 * `npx tsx bench/webhook-deliveries.ts [-- --events 2000000 --runs 10 --keep --reuse]`: the deliveries drawer of an
 * endpoint with millions of deliveries: through the real app (`buildApp` + `inject`) with migration 043,
 * then the two statements the list ran before 043 (a page, the status a parameter, and a count of the
 * endpoint's deliveries) without 043's index, then the app again (ABA: the machine is shared). The endpoints
 * list is timed in every round (the app's request each time). Every event is delivered to endpoint A
 * (its first 50 failed for good, its last 20 pending) and to one of B and C, so A holds half the table. A
 * scratch database `loyalty_bench_deliveries` on BENCH_PG_URL's server is created, filled and dropped
 * (`--keep` leaves it, for EXPLAIN; `--reuse` times it again without building). The endpoints are disabled: no worker claims the pending rows.
 */
const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB_NAME ?? 'loyalty_bench_deliveries';
const A = '00000000-0000-4000-8000-00000000000a';
const INDEX_043 = 'webhook_deliveries_endpoint_status_idx';

const SCENARIOS: Array<[string, string]> = [
  ['drawer, first page', `/api/v1/webhooks/${A}/deliveries?page=0&size=20`],
  ['drawer, page 50', `/api/v1/webhooks/${A}/deliveries?page=50&size=20`],
  ['status=failed (50 old)', `/api/v1/webhooks/${A}/deliveries?status=failed&size=20`],
  ['status=pending (20)', `/api/v1/webhooks/${A}/deliveries?status=pending&size=20`],
  ['status=succeeded', `/api/v1/webhooks/${A}/deliveries?status=succeeded&size=20`],
  ['endpoints list', '/api/v1/webhooks'],
];

/**
 * Every event is delivered to endpoint A (its first 50 failed for good, its last 20 pending) and to one of B
 * and C: A holds half the table. Through the triggers, as the app writes them.
 */
async function build(db: Kysely<Database>, events: number): Promise<void> {
  const started = Date.now();
  await sql`
    insert into webhook_endpoints (id, url, event_types, status, secret_cipher)
    select ('00000000-0000-4000-8000-00000000000' || c)::uuid, 'https://example.com/' || c,
      '{account.created}', 'disabled', 'x'
    from unnest(array['a', 'b', 'c']) c`.execute(db);
  // Two months of events, oldest first.
  await sql`
    insert into events (type, data, created_at)
    select 'account.created', jsonb_build_object('n', g),
      now() - make_interval(secs => (1 - g::double precision / ${events}) * 5184000)
    from generate_series(1, ${events}) g`.execute(db);
  await sql`
    insert into webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at,
      last_attempt_at, response_status, created_at)
    select ${A}::uuid, e.id,
      case when e.id <= 50 then 'failed' when e.id > ${events - 20} then 'pending' else 'succeeded' end,
      1, null, e.created_at, case when e.id <= 50 then 500 else 200 end, e.created_at
    from events e`.execute(db);
  await sql`
    insert into webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at,
      last_attempt_at, response_status, created_at)
    select case when e.id % 2 = 0 then '00000000-0000-4000-8000-00000000000b'::uuid
        else '00000000-0000-4000-8000-00000000000c'::uuid end,
      e.id, case when e.id % 100 = 0 then 'failed' else 'succeeded' end, 1, null, e.created_at, 200,
      e.created_at
    from events e`.execute(db);
  // Every endpoint's stream has read them all (they were delivered): no backlog to count.
  await sql`update webhook_endpoints set (stream_xid, stream_id) =
    (select xid, id from events order by xid desc, id desc limit 1)`.execute(db);
  await sql`vacuum analyze`.execute(db);
  console.error(
    `${events} events, ${events * 2} deliveries in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

const admin = (statement: string) => withAdminClient(SERVER_URL, (client) => client.query(statement));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '2000000' },
      runs: { type: 'string', default: '10' },
      keep: { type: 'boolean', default: false },
      reuse: { type: 'boolean', default: false },
    },
  });
  const events = Number(values.events);
  const runs = Number(values.runs);
  if (!values.reuse) {
    await admin(`drop database if exists ${DB_NAME} with (force)`);
    await admin(`create database ${DB_NAME}`);
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${DB_NAME}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    if (!values.reuse) await build(handle.db, events);
    const { app, headers } = await benchAdminApp(handle.db);
    const results = new Map<string, string[]>();
    const time = async (name: string, label: string, request: () => Promise<void>) => {
      await request();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await request();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
      const cell = `${p(0.5)} / ${p(0.95)}`;
      results.set(name, [...(results.get(name) ?? []), cell]);
      console.error(`${label}: ${name}: p50/p95 ${cell} ms`);
    };
    // Now: the app's own requests.
    const after = async (label: string) => {
      for (const [name, path] of SCENARIOS) {
        await time(name, label, async () => {
          const res = await app.inject({ url: path, headers });
          if (res.statusCode !== 200) throw new Error(`${path} → ${res.statusCode} ${res.body}`);
        });
      }
    };
    // Before 043: the two statements listDeliveries ran (the page, the status a parameter, and a count of
    // the deliveries), in parallel on two connections as the app ran them, without 043's index.
    const before = async (label: string) => {
      for (const [name, path] of SCENARIOS) {
        const query = new URL(path, 'http://x').searchParams;
        if (!path.includes('/deliveries')) {
          await time(name, label, async () => {
            await app.inject({ url: path, headers });
          });
          continue;
        }
        const status = query.get('status') ? sql`and d.status = ${query.get('status')}` : sql``;
        const page = Number(query.get('page') ?? 0);
        await time(name, label, async () => {
          await Promise.all([
            sql`select d.*, e.id as event_id, e.type as event_type, e.data as event_data,
                e.created_at as event_created_at
              from webhook_deliveries d join events e on e.id = d.event_id
              where d.endpoint_id = ${A}::uuid ${status}
              order by d.created_at desc, d.id desc limit 20 offset ${page * 20}`.execute(handle.db),
            sql`select count(*)::int as total from webhook_deliveries d
              where d.endpoint_id = ${A}::uuid ${status}`.execute(handle.db),
          ]);
        });
      }
    };
    const [{ definition }] = (
      await sql<{ definition: string }>`select pg_get_indexdef(${INDEX_043}::regclass) as definition`.execute(
        handle.db,
      )
    ).rows as [{ definition: string }];
    await after('043');
    await sql.raw(`drop index ${INDEX_043}`).execute(handle.db);
    await before('before 043');
    await sql.raw(definition).execute(handle.db);
    await sql`vacuum analyze webhook_deliveries`.execute(handle.db);
    await after('043 again');
    await app.close();

    console.log(
      `\n${events * 2} deliveries, ${events} of them endpoint A's; ${runs} requests per cell after one warm-up;`,
    );
    console.log(
      `${cpus().length} cores; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end\n`,
    );
    console.log('| request | 043: p50 / p95 ms | before 043: p50 / p95 ms | 043 again: p50 / p95 ms |');
    console.log('|---|---:|---:|---:|');
    for (const [name, cells] of results) console.log(`| ${name} | ${cells.join(' | ')} |`);
  } finally {
    await handle.close();
    if (!values.keep) await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
