import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { withAdminClient } from '../apps/server/test/leftover-databases';
import { benchAdminApp } from './bench-admin-app';

/**
 * `npm run bench:audit-list [-- --rows 2000000 --runs 15]`: the Audit Logs list at millions of entries,
 * through the real app (`buildApp` + `inject`), with migration 035's indexes, without them, and with them
 * again (ABA: the machine is shared, so the two "with" rounds show its drift). A scratch database
 * `loyalty_bench_audit` on BENCH_PG_URL's server is created, filled and dropped.
 */
const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'loyalty_bench_audit';
const INDEXES_035 = [
  'create index audit_log_username_trgm_idx on audit_log using gin (username gin_trgm_ops)',
  'create index audit_log_username_order_idx on audit_log (username, id)',
  'create index audit_log_target_type_order_idx on audit_log (target_type, id)',
];

const SCENARIOS: Array<[string, string]> = [
  ['newest first (default)', '/api/v1/audit?page=0&size=20'],
  ['sorted by user, first page', '/api/v1/audit?sort=username,asc&size=20'],
  ['sorted by user, descending', '/api/v1/audit?sort=username,desc&size=20'],
  ['sorted by type, first page', '/api/v1/audit?sort=targetType,asc&size=20'],
  ['filtered by type (card)', '/api/v1/audit?targetType=card&size=20'],
  ['search "mia" (a user name)', '/api/v1/audit?search=mia&size=20'],
  ['search "reissued" (a message word)', '/api/v1/audit?search=reissued&size=20'],
];

const admin = (statement: string) => withAdminClient(SERVER_URL, (client) => client.query(statement));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '2000000' }, runs: { type: 'string', default: '15' } },
  });
  const rows = Number(values.rows);
  const runs = Number(values.runs);
  await admin(`drop database if exists ${DB_NAME} with (force)`);
  await admin(`create database ${DB_NAME}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DB_NAME}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    const started = Date.now();
    // Twenty staff names, each with its one digit (one entry in eight has none: a failed sign-in of an
    // unknown name), the target types of the log, messages in the shapes the services write, two years.
    await sql`
      insert into audit_log (username, executed_at, message, target_type, target_id)
      select case when g % 8 = 0 then null else (array['mia','noah','lena','omar','ava','liam','zoe','ivan',
          'emma','lucas','sara','yusuf','nina','tom','ella','raj','lea','max','ana','ben'])[1 + g % 20] || (g % 2)::text end,
        now() - make_interval(secs => (g::double precision / ${rows}) * 63072000),
        (array['Created card ', 'Blocked card ', 'Reissued card ', 'Signed in from 203.0.113.', 'Updated settings ',
          'Added points to account '])[1 + g % 6] || g::text,
        (array['card','card','card','auth','settings','account','user','pos_key','ruleset','operation'])[1 + g % 10],
        case when g % 10 < 3 then gen_random_uuid()::text end
      from generate_series(1, ${rows}) g`.execute(handle.db);
    await sql`vacuum analyze audit_log`.execute(handle.db);
    console.error(`${rows} audit entries in ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const { app, headers } = await benchAdminApp(handle.db);
    const results = new Map<string, string[]>();
    const round = async (label: string) => {
      for (const [name, path] of SCENARIOS) {
        await app.inject({ url: path, headers });
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          const res = await app.inject({ url: path, headers });
          times.push(performance.now() - t0);
          if (res.statusCode !== 200) throw new Error(`${path} → ${res.statusCode} ${res.body}`);
        }
        times.sort((a, b) => a - b);
        const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
        const cell = `${p(0.5)} / ${p(0.95)}`;
        results.set(name, [...(results.get(name) ?? []), cell]);
        console.error(`${label}: ${name}: p50/p95 ${cell} ms`);
      }
    };
    await round('with 035');
    for (const statement of INDEXES_035) {
      await sql.raw(`drop index ${statement.split(' ')[2]}`).execute(handle.db);
    }
    await round('without 035');
    for (const statement of INDEXES_035) await sql.raw(statement).execute(handle.db);
    await sql`analyze audit_log`.execute(handle.db);
    await round('with 035 again');
    await app.close();

    console.log(
      `\n${rows} audit entries; ${runs} requests per cell after one warm-up; ${cpus().length} cores;`,
    );
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the end\n`,
    );
    console.log(
      '| request | with 035: p50 / p95 ms | without: p50 / p95 ms | with 035 again: p50 / p95 ms |',
    );
    console.log('|---|---:|---:|---:|');
    for (const [name, cells] of results) console.log(`| ${name} | ${cells.join(' | ')} |`);
  } finally {
    await handle.close();
    await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
