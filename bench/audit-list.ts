import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import type { Database } from '../apps/server/src/db/schema';
import { inTransaction } from '../apps/server/src/db/transaction';
import { insertAudit } from '../apps/server/src/modules/audit/audit.repository';
import { withAdminClient } from '../apps/server/test/leftover-databases';
import { benchAdminApp } from './bench-admin-app';

/**
 * `npm run bench:audit-list [-- --rows 2000000 --runs 15 --indexes 035|042]`: the Audit Logs list at
 * millions of entries, through the real app (`buildApp` + `inject`), with the indexes of migration 035 (or
 * 042), without them, and with them again (ABA: the machine is shared, so the two "with" rounds show its
 * drift). A scratch database (BENCH_AUDIT_DB, `loyalty_bench_audit` by default) on BENCH_PG_URL's server is
 * created, filled and dropped. Also times one audit insert with and without 042's search-counter triggers.
 */
const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_AUDIT_DB ?? 'loyalty_bench_audit';
const INDEXES = {
  '035': [
    'create index audit_log_username_trgm_idx on audit_log using gin (username gin_trgm_ops)',
    'create index audit_log_username_order_idx on audit_log (username, id)',
    'create index audit_log_target_type_order_idx on audit_log (target_type, id)',
  ],
  '042': [
    'create index audit_log_type_username_idx on audit_log (target_type, username, id)',
    'create index audit_log_user_type_idx on audit_log (lower(username), target_type, id)',
    'create index audit_log_target_id_idx on audit_log (target_id) where target_id is not null',
  ],
};

const SCENARIOS: Array<[string, string]> = [
  ['newest first (default)', '/api/v1/audit?page=0&size=20'],
  ['sorted by user, first page', '/api/v1/audit?sort=username,asc&size=20'],
  ['sorted by user, descending', '/api/v1/audit?sort=username,desc&size=20'],
  ['sorted by type, first page', '/api/v1/audit?sort=targetType,asc&size=20'],
  ['filtered by type (card)', '/api/v1/audit?targetType=card&size=20'],
  ['search "mia" (a user name)', '/api/v1/audit?search=mia&size=20'],
  ['search "reissued" (a message word)', '/api/v1/audit?search=reissued&size=20'],
  // One or two characters (042's counters): found nowhere, in most entries, in one user name of twenty.
  ['search "q" (no entry)', '/api/v1/audit?search=q&size=20'],
  ['search "e" (most entries)', '/api/v1/audit?search=e&size=20'],
  ['search "zo"', '/api/v1/audit?search=zo&size=20'],
  // A filter sorted by the other column (042's indexes).
  [
    'user noah1 + type settings by user (none)',
    '/api/v1/audit?username=noah1&targetType=settings&sort=username,asc&size=20',
  ],
  ['type pos_key by user, descending', '/api/v1/audit?sort=username,desc&targetType=pos_key&size=20'],
  ['type card by user', '/api/v1/audit?targetType=card&sort=username,asc&size=20'],
  ['user MIA0 by type', '/api/v1/audit?username=MIA0&sort=targetType,asc&size=20'],
  ['one target id', '/api/v1/audit?targetId=TARGET&size=20'],
];

const admin = (statement: string) => withAdminClient(SERVER_URL, (client) => client.query(statement));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '2000000' },
      runs: { type: 'string', default: '15' },
      indexes: { type: 'string', default: '035' },
    },
  });
  const which = values.indexes === '042' ? '042' : '035';
  const indexes = INDEXES[which];
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

    await timeInserts(handle.db, runs);
    const target = await sql<{
      id: string;
    }>`select target_id as id from audit_log where target_id is not null limit 1`
      .execute(handle.db)
      .then((r) => r.rows[0]!.id);
    const { app, headers } = await benchAdminApp(handle.db);
    const results = new Map<string, string[]>();
    const round = async (label: string) => {
      for (const [name, template] of SCENARIOS) {
        const path = template.replace('TARGET', target);
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
    await round(`with ${which}`);
    for (const statement of indexes) {
      await sql.raw(`drop index ${statement.split(' ')[2]}`).execute(handle.db);
    }
    await round(`without ${which}`);
    for (const statement of indexes) await sql.raw(statement).execute(handle.db);
    await sql`analyze audit_log`.execute(handle.db);
    await round(`with ${which} again`);
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
      `| request | with ${which}: p50 / p95 ms | without: p50 / p95 ms | with ${which} again: p50 / p95 ms |`,
    );
    console.log('|---|---:|---:|---:|');
    for (const [name, cells] of results) console.log(`| ${name} | ${cells.join(' | ')} |`);
  } finally {
    await handle.close();
    await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

/**
 * One entry written as a service writes it (its own statement, in a transaction), with 042's search-counter
 * triggers and without: what the counters cost each admin change and sign-in.
 */
async function timeInserts(db: Kysely<Database>, runs: number): Promise<void> {
  const once = async () => {
    const t0 = performance.now();
    await inTransaction(db, (trx) =>
      insertAudit(trx, {
        username: 'bench-admin',
        message: 'Updated settings for the bench',
        targetType: 'settings',
      }),
    );
    return performance.now() - t0;
  };
  const median = async () => {
    const times: number[] = [];
    for (let i = 0; i < runs * 4; i++) times.push(await once());
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!.toFixed(2);
  };
  const triggers = ['derived_audit_search_insert'];
  const withTriggers = await median();
  for (const t of triggers) await sql.raw(`alter table audit_log disable trigger ${t}`).execute(db);
  const without = await median();
  for (const t of triggers) await sql.raw(`alter table audit_log enable trigger ${t}`).execute(db);
  const again = await median();
  console.log(
    `one audit insert (p50 ms): with 042's search counters ${withTriggers}, without ${without}, with again ${again}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
