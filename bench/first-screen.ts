/**
 * `npm run bench:first-screen [-- --runs 15 --routes /settings,/users,/,/accounts --until .recharts-surface --port 3308 --no-build]`
 *
 * How long a signed-in first visit takes to show its screen, in real time (no throttling): the built console on
 * the real server (PGlite, a small demo programme seeded), a fresh browser context per visit (empty cache, as a
 * first visit), and the time from navigation start to the first `main h1` with text, read in the page by a
 * MutationObserver. Also the screen's first API request's start, the moment it can begin fetching its data, and
 * with `--until <selector>` the moment that selector first matches (e.g. the dashboard's chart).
 * Prints the median and 90th percentile per route.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { chromium as playwright } from '@playwright/test';
import chromium from '@sparticuz/chromium';
import { startSeededConsole } from './console-server';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    routes: { type: 'string', default: '/settings,/users,/,/accounts' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '3308' },
    until: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const root = new URL('..', import.meta.url).pathname;

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN);
};

async function main() {
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const { base, token, stop } = await startSeededConsole(root, Number(values.port));
  const browser = await playwright.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (await chromium.executablePath()),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    console.log(
      `first screen, median / p90 of ${values.runs} fresh visits; machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()[0]?.toFixed(1)}, Node ${process.version}`,
    );
    for (const route of values.routes.split(',')) {
      const heading: number[] = [];
      const firstApi: number[] = [];
      const until: number[] = [];
      for (let run = 0; run < Number(values.runs); run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        // Browser code as text: this file is type-checked without the DOM library.
        await page.addInitScript(`
          localStorage.setItem('token', ${JSON.stringify(token)});
          localStorage.setItem('tokenExpiry', '${Date.now() + 3_600_000}');
          new MutationObserver((_, observer) => {
            const untilSelector = ${JSON.stringify(values.until ?? null)};
            if (!window.__headingAt && document.querySelector('main h1')?.textContent?.trim())
              window.__headingAt = performance.now();
            if (untilSelector && !window.__untilAt && document.querySelector(untilSelector))
              window.__untilAt = performance.now();
            if (window.__headingAt && (!untilSelector || window.__untilAt)) observer.disconnect();
          }).observe(document, { childList: true, subtree: true, characterData: true });
        `);
        await page.goto(`${base}${route}`);
        await page.locator('main h1').first().waitFor();
        if (values.until) await page.locator(values.until).first().waitFor();
        // A resource is listed when its response has ended: wait for the screen's data to arrive.
        await page.waitForLoadState('networkidle');
        const times = (await page.evaluate(`({
          heading: window.__headingAt ?? NaN,
          until: window.__untilAt ?? NaN,
          api: performance.getEntriesByType('resource')
            .find((r) => /\\/(auth\\/)?api\\/v1\\//.test(r.name))?.startTime ?? NaN,
        })`)) as { heading: number; api: number; until: number };
        heading.push(times.heading);
        firstApi.push(times.api);
        until.push(times.until);
        await context.close();
      }
      console.log(
        `${route.padEnd(10)} | heading ${quantile(heading, 0.5)} / ${quantile(heading, 0.9)} ms | first API request ${quantile(firstApi, 0.5)} / ${quantile(firstApi, 0.9)} ms${values.until ? ` | ${values.until} ${quantile(until, 0.5)} / ${quantile(until, 0.9)} ms` : ''}`,
      );
    }
  } finally {
    await browser.close();
    stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
