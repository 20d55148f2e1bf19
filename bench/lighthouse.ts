/**
 * `npm run bench:lighthouse [-- --runs 3 --routes /login,/dashboard,/pos-api --no-build]`
 *
 * Builds the console, serves it with the real server on a fresh PGlite data folder (a small demo programme
 * seeded, so the dashboard has data to draw), and runs Lighthouse's default mobile audit (simulated
 * slow 4G, 4x CPU slowdown) in the bundled Chromium. Signed-in routes get a session token in localStorage;
 * the HTTP cache is emptied before every run, so each run is a first visit. Prints the median
 * performance score and the JS bytes of each route's first load (as sent, i.e. compressed, and unpacked).
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import chromium from '@sparticuz/chromium';
import { startSeededConsole } from './console-server';

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
const root = new URL('..', import.meta.url).pathname;

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

async function main(): Promise<void> {
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });

  const { base, token, stop } = await startSeededConsole(root, port);
  try {
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
    stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
