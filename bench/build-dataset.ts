import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/connection';
import { rebuildDerivedTables } from '../apps/server/src/db/derived';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import {
  cardsSql,
  lotsCandidatesSql,
  lotsExpiryDaysSql,
  lotsInsertSql,
  operationsChunkSql,
  referenceDataSql,
  settleBalancesSql,
} from './dataset-sql';

/**
 * Builds the benchmark database: `npm run bench:dataset -- --cards 1000000 --operations 10000000 --days 30`.
 *
 * Drops and recreates BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/loyalty_bench), runs
 * the app's migrations, then loads set-based (INSERT … SELECT over generate_series) with triggers off and
 * the secondary indexes dropped, rebuilds those indexes in bulk, vacuums, and recomputes every derived table
 * with the app's own `rebuildDerivedTables`, so counters and rollups are exact. Balances are proven by the
 * ledger: each account's balance is the sum of its completed operations, its held balance that of its
 * active holds (an "Opening balance" adjustment covers an account whose history would go negative).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cards: { type: 'string', default: '1000000' },
      operations: { type: 'string', default: '10000000' },
      days: { type: 'string', default: '30' },
      // About this many lots are due for the expiry sweeper when the build ends (default: one per ten
      // operations, ~1M at 10M operations).
      'due-lots': { type: 'string' },
    },
  });
  const cards = Number(values.cards);
  const operations = Number(values.operations);
  const days = Number(values.days);
  const dueLots = Number(values['due-lots'] ?? Math.round(operations / 10));
  if (![cards, operations, days, dueLots].every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw new Error('--cards, --operations, --days and --due-lots must be positive integers');
  }
  // One account in six has a second card (an extra active one, a lost/blocked one or a pending one).
  const accounts = Math.max(1, Math.round(cards / 1.2));

  const url = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/loyalty_bench');
  const name = url.pathname.slice(1);
  if (!/^\w+$/.test(name)) throw new Error(`unexpected database name '${name}'`);

  const started = performance.now();
  const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
  const log = (line: string) => console.log(`[${seconds(started).padStart(6)} s] ${line}`);

  const admin = new pg.Client({ connectionString: new URL('/postgres', url).toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();

  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  await migrateToLatest(handle.db);
  log(
    `migrated ${name}; loading ${accounts} accounts, ${cards} cards, ${operations} operations over ${days} days`,
  );

  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const run = async (label: string, text: string) => {
    const t = performance.now();
    const result = await client.query(text);
    log(`${label} (${seconds(t)} s)`);
    return result;
  };
  // A bulk load: no triggers or FK checks (derived tables are rebuilt at the end), no flush per commit.
  await client.query(`
    set session_replication_role = replica;
    set synchronous_commit = off;
    set work_mem = '256MB';
    set maintenance_work_mem = '1GB';
    set max_parallel_maintenance_workers = 1;
  `);

  // Secondary indexes are dropped and rebuilt after the load: a sorted build is far cheaper than 10M
  // random insertions. Whatever other migrations added on these tables is rebuilt the same way.
  const { rows: indexes } = await run(
    'dropped secondary indexes',
    `with dropped as (
       select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class t on t.oid = i.indrelid
       where t.relname in ('accounts', 'cards', 'operations', 'lots') and t.relnamespace = 'public'::regnamespace
         and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
     ) select name, def from dropped`,
  );
  for (const index of indexes) await client.query(`drop index ${index.name}`);

  await run('settings, POS keys, rulesets, excluded SKUs', referenceDataSql(days));
  await run(`${accounts} accounts and ${cards} cards`, cardsSql(accounts, cards, days));

  const chunk = 1_000_000;
  for (let from = 1; from <= operations; from += chunk) {
    const to = Math.min(operations, from + chunk - 1);
    await run(`operations ${from}–${to}`, operationsChunkSql(from, to, operations, accounts, days));
  }
  await run('balances settled from the ledger', settleBalancesSql(operations));
  await run('lot candidates (the newest credits that make up each balance)', lotsCandidatesSql());
  const { rows: expiry } = await run(`expiry period for ~${dueLots} due lots`, lotsExpiryDaysSql(dueLots));
  const expiryDays = Number(expiry[0]?.days ?? 1);
  await run(`lots expiring ${expiryDays} days after they were earned`, lotsInsertSql(expiryDays));

  for (const index of indexes) {
    await run(`index ${index.name}`, index.def);
  }
  await client.query('set session_replication_role = origin');
  for (const table of ['accounts', 'cards', 'operations', 'lots', 'pos_keys', 'rulesets', 'excluded_skus']) {
    await run(`vacuum (freeze, analyze) ${table}`, `vacuum (freeze, analyze) ${table}`);
  }
  await client.end();

  const t = performance.now();
  await rebuildDerivedTables(handle.db, (line) => log(line));
  log(`derived tables rebuilt (${seconds(t)} s)`);
  const counts = await handle.db
    .selectFrom('operations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const lots = await handle.db
    .selectFrom('lots')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.count<number>('id').filterWhere('expires_at', '<=', new Date()).as('due'),
    ])
    .executeTakeFirstOrThrow();
  await handle.close();
  log(`done: ${accounts} accounts, ${cards} cards, ${counts.n} operations in ${seconds(started)} s`);
  log(`lots: ${lots.n}, due now: ${lots.due} (points.expiry_days = ${expiryDays})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
