/**
 * `npm run bench:derived-triggers`: what the derived-data triggers cost a POS-like transaction, as release 009
 * left them (statement-level counters, row-level rollups) against migration 010 (statement-level for both),
 * with the same transaction and no triggers as the anchor, on one PostgreSQL server in one run.
 *
 * Three databases (`loyalty_bench_derived_{009,010,none}`, dropped afterwards) with 1,000 accounts and cards;
 * pgbench (one client, prepared statements, 10 s per run) runs two custom scripts: accrual-like (credit the
 * balance, insert a completed accrual) and hold+capture-like (hold, capture, redemption, balance). The runs
 * alternate 009 / 010 / none twice, so the load of a shared machine drifts over all three alike. Throughput
 * moves with the neighbours; the PostgreSQL CPU each transaction costs (bench/pos-cpu.ts) much less, so the
 * triggers' cost is CPU per transaction minus that of the database without triggers.
 *
 * Environment: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SECONDS (10).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { urlOfDatabase, withAdminClient } from '../apps/server/test/test-database';
import { meterDatabase } from './pos-cpu';

const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const variants = ['009', '010', 'none'] as const;
const dbName = (variant: string) => `loyalty_bench_derived_${variant}`;
const dbUrl = (name: string) => urlOfDatabase(SERVER_URL, name);
const admin = (statement: string) => withAdminClient(SERVER_URL, (client) => client.query(statement));

const account = `(select id from accounts where client_id = 'ab-' || :a)`;
const card = `'9' || lpad(:a::text, 15, '0')`;
const scripts = {
  accrual: `\\set a random(1, 1000)
begin;
update accounts set balance = balance + 1 where client_id = 'ab-' || :a;
insert into operations (operation_id, type, status, points, account_id, card_number)
  values (gen_random_uuid()::text, 'accrual', 'completed', 1, ${account}, ${card});
commit;
`,
  'hold+capture': `\\set a random(1, 1000)
begin;
update accounts set held_balance = held_balance + 1 where client_id = 'ab-' || :a;
insert into operations (operation_id, type, status, points, account_id, card_number)
  values (gen_random_uuid()::text, 'hold', 'active', 1, ${account}, ${card}) returning id as hold \\gset
update operations set status = 'applied' where id = :hold;
insert into operations (operation_id, type, status, points, account_id, card_number, related_id)
  values (gen_random_uuid()::text, 'redemption', 'completed', -1, ${account}, ${card}, :hold);
update accounts set balance = balance - 1, held_balance = held_balance - 1 where client_id = 'ab-' || :a;
commit;
`,
};

async function prepare(variant: (typeof variants)[number]) {
  await admin(`drop database if exists ${dbName(variant)} with (force)`);
  await admin(`create database ${dbName(variant)}`);
  const handle = await openDatabase({ databaseUrl: dbUrl(dbName(variant)), poolSize: 1 });
  try {
    await migrateToLatest(handle.db, variant === '009' ? { skip: ['010-derived-subsystem'] } : {});
    await sql`
      insert into accounts (client_id, balance) select 'ab-' || i, 1000000000 from generate_series(1, 1000) i;
      insert into cards (number, account_id, status)
        select '9' || lpad(substr(client_id, 4), 15, '0'), id, 'active' from accounts;
    `.execute(handle.db);
    if (variant === 'none') {
      for (const table of ['operations', 'cards', 'accounts']) {
        await sql.raw(`alter table ${table} disable trigger user`).execute(handle.db);
      }
    }
  } finally {
    await handle.close();
  }
}

/** One pgbench run: its tps, and the PostgreSQL CPU (ms) each transaction cost. */
async function run(variant: string, file: string): Promise<{ tps: number; cpu: number }> {
  const meter = await meterDatabase(SERVER_URL, dbName(variant));
  const out = await new Promise<string>((done, fail) =>
    execFile(
      'pgbench',
      ['-n', '-c', '1', '-M', 'prepared', '-T', String(SECONDS), '-f', file, dbUrl(dbName(variant))],
      { encoding: 'utf8' },
      (error, stdout) => (error ? fail(error) : done(stdout)),
    ),
  );
  const cpuMs = await meter.stop();
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const transactions = Number(/actually processed: (\d+)/.exec(out)?.[1]);
  if (!tps || !transactions) throw new Error(`could not read pgbench output:\n${out}`);
  return { tps, cpu: cpuMs / transactions };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'derived-bench-'));
  for (const variant of variants) await prepare(variant);
  const load = loadavg()[0]!.toFixed(2);
  const lines = [
    `| transaction | tps 009 / 010 / none | PostgreSQL CPU ms per transaction 009 / 010 / none | triggers' CPU ms 009 → 010 |`,
    '|---|---|---|---|',
  ];
  try {
    for (const [name, text] of Object.entries(scripts)) {
      const file = join(dir, `${name.replace(/\W/g, '-')}.sql`);
      writeFileSync(file, text);
      const runs: Record<string, Array<{ tps: number; cpu: number }>> = { '009': [], '010': [], none: [] };
      for (let round = 0; round < 2; round++) for (const v of variants) runs[v]!.push(await run(v, file));
      const mean = (v: string, key: 'tps' | 'cpu') =>
        runs[v]!.reduce((a, r) => a + r[key], 0) / runs[v]!.length;
      const tps = variants.map((v) => mean(v, 'tps').toFixed(0)).join(' / ');
      const cpu = variants.map((v) => mean(v, 'cpu').toFixed(2)).join(' / ');
      const triggers = (v: string) => (mean(v, 'cpu') - mean('none', 'cpu')).toFixed(2);
      lines.push(`| ${name} | ${tps} | ${cpu} | ${triggers('009')} → ${triggers('010')} |`);
      console.log(`${name}: ${JSON.stringify(runs)}`);
    }
  } finally {
    for (const variant of variants) await admin(`drop database if exists ${dbName(variant)} with (force)`);
  }
  console.log(
    `\nload average (1 min) at start: ${load}, at end: ${loadavg()[0]!.toFixed(2)}; pgbench -c 1 -M prepared -T ${SECONDS}, runs alternated 009/010/none twice\n`,
  );
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
