/**
 * `npm run bench:group-commit`: what group commit could buy one hot account (issue 13), measured with
 * pgbench alone, before anyone builds it. One account row, 8 clients, each transaction locks the row as the
 * ledger does (`FOR NO KEY UPDATE`) and then writes like a hold does (move the balance, insert an operation):
 *
 * - one write per transaction (what the POS API does today: BEGIN, lock, update, insert, COMMIT);
 * - eight writes per transaction, one after another (a batch of requests sharing the lock and the commit);
 * - eight writes per transaction, each inside its own savepoint (so one failing request would not fail the
 *   others);
 * - eight writes per transaction as one update and one multi-row insert (the set-based form).
 *
 * Every statement is its own round trip, as from the server. Prints writes per second for each shape over
 * `BENCH_ROUNDS` (3) rounds of `BENCH_SECONDS` (8) each, in alternation; before each run the operations
 * are emptied and the account vacuumed, so no shape inherits another's dead rows.
 * Environment: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVER = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const BATCH = 8;
const DB = 'loyalty_bench_group_commit';
const url = new URL(SERVER);
url.pathname = `/${DB}`;

const psql = (target: URL, sql: string) =>
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', target.toString(), '-c', sql], { stdio: 'pipe' });

const lock = 'SELECT balance, held FROM acct WHERE id = 1 FOR NO KEY UPDATE;';
const write = [
  'UPDATE acct SET held = held + 1 WHERE id = 1;',
  'INSERT INTO ops (account_id, points) VALUES (1, 1);',
];
const repeat = (lines: string[]) => Array.from({ length: BATCH }, () => lines).flat();

const shapes: Array<{ name: string; writes: number; lines: string[] }> = [
  { name: 'one write per transaction', writes: 1, lines: [lock, ...write] },
  { name: `${BATCH} writes per transaction, in turn`, writes: BATCH, lines: [lock, ...repeat(write)] },
  {
    name: `${BATCH} writes per transaction, a savepoint each`,
    writes: BATCH,
    lines: [lock, ...repeat(['SAVEPOINT r;', ...write, 'RELEASE SAVEPOINT r;'])],
  },
  {
    name: `${BATCH} writes per transaction, set-based`,
    writes: BATCH,
    lines: [
      lock,
      `UPDATE acct SET held = held + ${BATCH} WHERE id = 1;`,
      `INSERT INTO ops (account_id, points) SELECT 1, 1 FROM generate_series(1, ${BATCH});`,
    ],
  },
];

const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
const files = shapes.map((shape, i) => {
  const file = join(dir, `shape-${i}.sql`);
  writeFileSync(file, ['BEGIN;', ...shape.lines, 'COMMIT;', ''].join('\n'));
  return file;
});

function tps(file: string): number {
  const out = execFileSync(
    'pgbench',
    ['-n', '-c', '8', '-j', '2', '-T', String(SECONDS), '-M', 'prepared', '-f', file, url.toString()],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const match = /tps = ([\d.]+)/.exec(out);
  if (!match) throw new Error(`no tps in pgbench's output:\n${out}`);
  return Number(match[1]);
}

psql(SERVER, `drop database if exists ${DB}`);
psql(SERVER, `create database ${DB}`);
try {
  psql(
    url,
    `create table acct (id int primary key, balance bigint not null, held bigint not null);
     insert into acct values (1, 1000000000, 0);
     create table ops (id bigserial primary key, account_id int not null, points bigint not null,
       created_at timestamptz default now());
     create index on ops (account_id, created_at);`,
  );
  const results = shapes.map(() => [] as number[]);
  const loadBefore = loadavg()[0]!;
  for (let round = 0; round < ROUNDS; round++) {
    shapes.forEach((shape, i) => {
      psql(url, 'truncate ops');
      psql(url, 'vacuum acct');
      results[i]!.push(tps(files[i]!) * shape.writes);
    });
  }
  console.log(
    `${cpus().length} cores (${cpus()[0]?.model.trim()}), 8 clients, ${SECONDS} s per run, ${ROUNDS} rounds`,
  );
  console.log(`load average (1 min): ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after\n`);
  console.log('| shape | writes/s, each round | median |');
  console.log('|---|---|---:|');
  shapes.forEach((shape, i) => {
    const runs = results[i]!;
    const median = [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    console.log(`| ${shape.name} | ${runs.map((r) => Math.round(r)).join(', ')} | ${Math.round(median)} |`);
  });
} finally {
  psql(SERVER, `drop database if exists ${DB}`);
}
