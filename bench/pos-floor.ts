/**
 * `npm run bench:pos-floor`: how close to pgbench can any POS server in front of PostgreSQL get on this
 * machine? Issue 13 asks accruals for ≥ 50% of pgbench tpcb-like tps. This measures the floor under that
 * target: pgbench's own TPC-B transaction, served over HTTP by a minimal Node server (Fastify, a zod check
 * of the body, `pg` with prepared statements, 10 pooled connections: the product's stack without the
 * product), driven by autocannon with the same 8 clients, against pgbench in the same run. Two shapes:
 *
 * - `statements`: the transaction as pgbench sends it, seven round trips (BEGIN, three updates, a select, an
 *   insert, END);
 * - `one call`: the same transaction as one SQL function, one round trip in autocommit, the fewest a
 *   server can send.
 *
 * A POS accrual does at least TPC-B's work in the database (a balance, an operation, its claim, a lot and an
 * event, against three balances and a history row) and more in Node, so its ratio cannot pass these.
 * Prints, per shape, requests/s, the ratio to pgbench (mean of runs before and after) and the CPU one request
 * costs (Node server, its PostgreSQL backends, the load generator), over BENCH_ROUNDS (3) alternating rounds.
 * Environment: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SECONDS (10),
 * BENCH_CONNECTIONS (8), BENCH_PORT (3104), BENCH_PROFILE=<dir> (--cpu-prof of the floor server).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import { runTpcb } from './pgbench-run';
import { meterDatabase, processCpuMs, selfCpuMs } from './pos-cpu';

const SERVER = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 3104);
const DB = 'loyalty_bench_pos_floor';
const SCALE = 10; // pgbench -s 10: 1M accounts, 100 tellers, 10 branches, as bench:pos's anchor.
const dbUrl = new URL(SERVER);
dbUrl.pathname = `/${DB}`;

const body = z.object({
  aid: z.number().int(),
  bid: z.number().int(),
  tid: z.number().int(),
  delta: z.number().int(),
});

// pgbench's tpcb-like script, statement by statement.
const tpcb = [
  'UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2',
  'SELECT abalance FROM pgbench_accounts WHERE aid = $1',
  'UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2',
  'UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2',
  'INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)',
];
const tpcbFunction = `CREATE OR REPLACE FUNCTION tpcb(p_aid int, p_bid int, p_tid int, p_delta int) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE balance int;
BEGIN
  UPDATE pgbench_accounts SET abalance = abalance + p_delta WHERE aid = p_aid;
  SELECT abalance INTO balance FROM pgbench_accounts WHERE aid = p_aid;
  UPDATE pgbench_tellers SET tbalance = tbalance + p_delta WHERE tid = p_tid;
  UPDATE pgbench_branches SET bbalance = bbalance + p_delta WHERE bid = p_bid;
  INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (p_tid, p_bid, p_aid, p_delta, CURRENT_TIMESTAMP);
  RETURN balance;
END $$`;

/** Child process: the floor server. */
async function serve() {
  const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 10 });
  const app = Fastify({ logger: false });
  const q = (name: string, text: string, values: unknown[]) => ({ name, text, values });
  app.post('/statements', async (request) => {
    const { aid, bid, tid, delta } = body.parse(request.body);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(q('u1', tpcb[0]!, [delta, aid]));
      const { rows } = await client.query(q('s1', tpcb[1]!, [aid]));
      await client.query(q('u2', tpcb[2]!, [delta, tid]));
      await client.query(q('u3', tpcb[3]!, [delta, bid]));
      await client.query(q('i1', tpcb[4]!, [tid, bid, aid, delta]));
      await client.query('END');
      return { balance: rows[0].abalance };
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  });
  app.post('/one-call', async (request) => {
    const { aid, bid, tid, delta } = body.parse(request.body);
    const { rows } = await pool.query(
      q('f1', 'SELECT tpcb($1, $2, $3, $4) AS balance', [aid, bid, tid, delta]),
    );
    return { balance: rows[0].balance };
  });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  // A clean exit, so that --cpu-prof writes its profile.
  process.once('SIGTERM', async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  });
  process.send?.('ready');
}

function start(): Promise<ChildProcess> {
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, ...process.execArgv, resolve(process.argv[1]!), '--serve'],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((done, fail) => {
    child.once('message', () => done(child));
    child.once('exit', (code) => fail(new Error(`floor server exited with ${code}`)));
  });
}

const randomInt = (n: number) => 1 + Math.floor(Math.random() * n);

async function drive(child: ChildProcess, path: string) {
  const meter = await meterDatabase(SERVER.toString(), DB);
  const server0 = processCpuMs(child.pid!) ?? 0;
  const self0 = selfCpuMs();
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        // pgbench's choice of rows: any account, teller and branch, a delta in ±5000.
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            aid: randomInt(100_000 * SCALE),
            bid: randomInt(SCALE),
            tid: randomInt(10 * SCALE),
            delta: randomInt(10_001) - 5001,
          }),
        }),
      },
    ],
  });
  const n = Math.max(result.requests.total, 1);
  if (result.non2xx + result.errors > 0)
    throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    perSecond: result.requests.total / SECONDS,
    server: ((processCpuMs(child.pid!) ?? 0) - server0) / n,
    database: (await meter.stop()) / n,
    client: (selfCpuMs() - self0) / n,
  };
}

async function pgbench(): Promise<number> {
  return (await runTpcb(dbUrl.toString(), CONNECTIONS, SECONDS)).tps;
}

async function main() {
  execFileSync('psql', [
    '-q',
    SERVER.toString(),
    '-c',
    `DROP DATABASE IF EXISTS ${DB}`,
    '-c',
    `CREATE DATABASE ${DB}`,
  ]);
  execFileSync('pgbench', ['-i', '-s', String(SCALE), '-q', dbUrl.toString()], { stdio: 'ignore' });
  execFileSync('psql', ['-q', dbUrl.toString(), '-c', tpcbFunction]);
  const child = await start();
  const fmt = (x: number) => x.toFixed(2);
  console.log(
    `load average (1 min) ${loadavg()[0]!.toFixed(1)}; ${cpus().length} cores; ${CONNECTIONS} clients; ${SECONDS} s per run\n`,
  );
  console.log(
    '| round | pgbench tps (before, after) | shape | req/s | vs pgbench | CPU ms per request: Node / PostgreSQL / client |',
  );
  console.log('|---|---|---|---:|---:|---|');
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const before = await pgbench();
      const statements = await drive(child, '/statements');
      const oneCall = await drive(child, '/one-call');
      const after = await pgbench();
      const anchor = (before + after) / 2;
      for (const [shape, r] of [
        ['statements (7 round trips)', statements],
        ['one call (1 round trip)', oneCall],
      ] as const) {
        const share = `${((100 * r.perSecond) / anchor).toFixed(0)}%`;
        const cpu = `${fmt(r.server)} / ${fmt(r.database)} / ${fmt(r.client)}`;
        console.log(
          `| ${round} | ${before.toFixed(0)}, ${after.toFixed(0)} | ${shape} | ${r.perSecond.toFixed(0)} | ${share} | ${cpu} |`,
        );
      }
    }
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    execFileSync('psql', ['-q', SERVER.toString(), '-c', `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`]);
  }
  console.log(`\nload average (1 min) at the end ${loadavg()[0]!.toFixed(1)}`);
}

(process.argv.includes('--serve') ? serve() : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
