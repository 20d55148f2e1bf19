/**
 * `npm run bench:lighthouse [-- --runs 3 --routes /login,/dashboard,/pos-api --no-build]`
 *
 * Builds the console, serves it with the real server on a fresh PGlite data folder (a small demo programme
 * seeded, so the dashboard has data to draw), and runs Lighthouse's default mobile audit (simulated
 * slow 4G, 4x CPU slowdown) in the bundled Chromium. Signed-in routes get a session token in localStorage;
 * the HTTP cache is emptied before every run, so each run is a first visit. Prints the median
 * performance score and the JS bytes of each route's first load (as sent, i.e. compressed, and unpacked).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import chromium from '@sparticuz/chromium';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    routes: { type: 'string', default: '/login,/dashboard,/pos-api' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '3307' },
    'no-build': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const routes = values.routes.split(',');
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;
const root = new URL('..', import.meta.url).pathname;
const password = 'bench-lighthouse-pw';

interface RunResult {
  route: string;
  finalPath: string;
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  jsTransfer: number;
  jsResource: number;
  jsFiles: number;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function waitForReady(server: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server not ready after 60 s');
}

async function main(): Promise<void> {
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: password,
    LOG_LEVEL: 'warn',
  };
  // A small programme so the dashboard's cards and chart have something to show.
  execFileSync(
    'npx',
    ['tsx', 'apps/server/scripts/seed.ts', '--accounts', '120', '--days', '7', '--per-day', '20'],
    {
      cwd: root,
      env,
      stdio: 'ignore',
    },
  );
  // node itself (not npx) so the PID killed at the end is the server's.
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverErrors = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    serverErrors = (serverErrors + chunk.toString()).slice(-2000);
  });
  server.on('exit', (code) => {
    if (code) console.error(`server exited with ${code}:\n${serverErrors}`);
  });
  try {
    await waitForReady(server);
    const login = await fetch(`${base}/auth/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const { token } = (await login.json()) as { token: string };
    if (!token) throw new Error(`sign-in failed: ${login.status}`);
    const chromePath = process.env.CHROMIUM_PATH ?? (await chromium.executablePath());

    console.log(
      `Lighthouse 13.5, default mobile config (simulated slow 4G, 4x CPU), median of ${runs}; ${base}`,
    );
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()[0]?.toFixed(1)}, Node ${process.version}`,
    );
    for (const route of routes) {
      const out = execFileSync(
        process.execPath,
        [join(root, 'bench/lighthouse-run.mjs'), base, route, String(runs), token, chromePath],
        { maxBuffer: 64 * 1024 * 1024 },
      );
      const results = out
        .toString()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as RunResult);
      for (const r of results) {
        if (r.finalPath !== route)
          throw new Error(`${route} ended on ${r.finalPath} (session not accepted?)`);
      }
      const ms = (pick: (r: RunResult) => number) => `${Math.round(median(results.map(pick)))} ms`;
      const last = results[results.length - 1] as RunResult;
      console.log(
        [
          route.padEnd(10),
          `performance ${median(results.map((r) => r.score))} (runs: ${results.map((r) => r.score).join(', ')})`,
          `FCP ${ms((r) => r.fcp)}`,
          `LCP ${ms((r) => r.lcp)}`,
          `TBT ${ms((r) => r.tbt)}`,
          `JS ${(last.jsTransfer / 1024).toFixed(1)} KiB sent / ${(last.jsResource / 1024).toFixed(1)} KiB unpacked, ${last.jsFiles} files`,
        ].join(' | '),
      );
    }
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
