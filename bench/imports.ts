/**
 * `npm run bench:imports`: member import of BENCH_ROWS (100,000) rows with a card and opening points each,
 * on a PostgreSQL server (PROGRAMME-API.md §4: under a minute). The real server as a child process
 * (`node --import tsx`, one process, so its RSS is the server's) on a scratch database, the file POSTed as a
 * stream. Prints the import's time, rows/s and the server's RSS (idle before, and the peak during the import:
 * VmHWM reset just before it, so the start-up's peak does not count), the same file again (all unchanged),
 * and the anchor of the same run: psql `\copy` of the same file into a scratch table (the floor for moving
 * those bytes into PostgreSQL). verifyLedger proves the balances afterwards.
 *
 * BENCH_ROWS may list sizes (`25000,50000,100000`): each runs back to back on a fresh database and a fresh
 * server, and a summary shows whether the peak over the idle server grows with the file (issue 11's bar).
 *
 * Environment: BENCH_ROWS (100000), BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_PORT (4106), BENCH_DB_PREFIX (imports_bench: the scratch database is PREFIX_<pid>), BENCH_EXPLAIN=1
 * (auto_explain of statements over 300 ms into the PostgreSQL log), BENCH_SERVER_NODE_ARGS (Node flags of the
 * server process only, e.g. `--trace-gc`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { ledgerIsSound, verifyLedger } from '../apps/server/src/modules/ledger/verify-ledger';

const sizes = (process.env.BENCH_ROWS ?? '100000').split(',').map(Number);
const base = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const port = Number(process.env.BENCH_PORT ?? 4106);
const name = `${process.env.BENCH_DB_PREFIX ?? 'imports_bench'}_${process.pid}`;
const dbUrl = new URL(base);
dbUrl.pathname = `/${name}`;
/** Node flags for the server process only, e.g. `--trace-gc` or `--max-old-space-size=96`. */
const serverArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const root = fileURLToPath(new URL('..', import.meta.url));

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: base.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function writeFile(dir: string, rows: number): string {
  const file = join(dir, 'members.csv');
  const lines = ['clientId,cardNumber,points,expiresAt,reason'];
  for (let i = 0; i < rows; i++) {
    // 16 digits, distinct per row, starting 7 (numbers the product draws start 1–9: no clash matters here).
    const card = `7${String(i).padStart(15, '0')}`;
    lines.push(`BENCH-${i},${card},${(i % 5000) + 0.5},2099-01-01T00:00:00Z,Opening balance`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Resets the process's peak RSS (VmHWM) to its current RSS, so the next reading is the peak from now on. */
function resetPeak(pid: number) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function waitReady(url: string) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

function timedCopy(file: string): number {
  const start = performance.now();
  execFileSync('psql', [
    dbUrl.toString(),
    '-q',
    '-c',
    'create table if not exists bench_copy (client_id text, card_number text, points numeric(14,2), expires_at timestamptz, reason text); truncate bench_copy',
    '-c',
    `\\copy bench_copy from '${file}' with (format csv, header true)`,
  ]);
  return (performance.now() - start) / 1000;
}

interface ImportAnswer {
  created: number;
  unchanged: number;
  errors?: unknown[];
}

interface Run {
  rows: number;
  seconds: number;
  idle: number;
  peak: number;
  again: number;
  load: [number, number];
}

async function runSize(rows: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'imports-bench-'));
  await admin(`create database ${name}`);
  const handle = await openDatabase({ databaseUrl: dbUrl.toString(), poolSize: 2 });
  await migrateToLatest(handle.db);
  if (process.env.BENCH_EXPLAIN)
    await admin(
      `alter database ${name} set session_preload_libraries = 'auto_explain'; alter database ${name} set auto_explain.log_min_duration = '300ms'; alter database ${name} set auto_explain.log_analyze = on; alter database ${name} set auto_explain.log_nested_statements = on`,
    );
  const file = writeFile(dir, rows);
  const server = spawn(process.execPath, [...serverArgs, '--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl.toString(),
      PORT: String(port),
      DATA_DIR: dir,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'bench-admin-password',
      LOG_LEVEL: 'warn',
      HOLD_SWEEP_INTERVAL_MS: '0',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(url);
    const login = await fetch(`${url}/auth/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'bench-admin-password' }),
    });
    const { token } = (await login.json()) as { token: string };
    // node:http, not fetch: fetch gives up waiting for the answer's headers after 300 s, and a slow import on a
    // loaded machine is a figure to report, not an error.
    const post = () =>
      new Promise<{ seconds: number; status: number; body: ImportAnswer }>((resolve, reject) => {
        const start = performance.now();
        const req = request(
          `${url}/api/v1/imports/accounts`,
          { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
            });
            res.on('end', () =>
              resolve({
                seconds: (performance.now() - start) / 1000,
                status: res.statusCode ?? 0,
                body: JSON.parse(text) as ImportAnswer,
              }),
            );
          },
        );
        req.on('error', reject);
        createReadStream(file).pipe(req);
      });
    const loadBefore = loadavg()[0]!;
    const copyBefore = timedCopy(file);
    const idle = rssOf(server.pid!).rss;
    resetPeak(server.pid!);
    const first = await post();
    const peak = rssOf(server.pid!).hwm;
    const again = await post();
    const peakAgain = rssOf(server.pid!).hwm;
    const loadAfter = loadavg()[0]!;
    const copyAfter = timedCopy(file);
    const report = await verifyLedger(handle.db);
    const size = statSync(file).size;
    console.log(
      [
        `member import, ${rows} rows (${mb(size)}), PostgreSQL at ${base.host}; ${cpus().length} cores, load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
        `  first import: ${first.status} ${first.seconds.toFixed(1)} s, ${Math.round(rows / first.seconds)} rows/s — ${JSON.stringify({ ...first.body, errors: first.body.errors?.length })}`,
        `  server RSS: ${mb(idle)} idle before, peak ${mb(peak)} during the import (+${mb(peak - idle)})`,
        `  same file again: ${again.status} ${again.seconds.toFixed(1)} s — created ${again.body.created}, unchanged ${again.body.unchanged}; RSS peak after it ${mb(peakAgain)}`,
        `  anchor, psql \\copy of the same file: ${copyBefore.toFixed(2)} s before, ${copyAfter.toFixed(2)} s after`,
        `  verify-ledger: ${ledgerIsSound(report) ? 'sound' : 'DIFFERENCES'} (${report.accountsChecked} accounts)`,
      ].join('\n'),
    );
    if (first.status !== 200 || first.body.created !== rows || !ledgerIsSound(report))
      throw new Error(`the import of ${rows} rows did not do its work`);
    return { rows, seconds: first.seconds, idle, peak, again: again.seconds, load: [loadBefore, loadAfter] };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await handle.close();
    await admin(`drop database if exists ${name} with (force)`);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const runs: Run[] = [];
  for (const rows of sizes) runs.push(await runSize(rows));
  if (runs.length < 2) return;
  console.log(
    '\n| rows | first import | rows/s | same file again | server RSS idle → peak (growth) | load |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of runs)
    console.log(
      `| ${r.rows.toLocaleString('en')} | ${r.seconds.toFixed(1)} s | ${Math.round(r.rows / r.seconds).toLocaleString('en')} | ${r.again.toFixed(1)} s | ${mb(r.idle)} → ${mb(r.peak)} (+${mb(r.peak - r.idle)}) | ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)} |`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
