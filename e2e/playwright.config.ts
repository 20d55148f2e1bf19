import { defineConfig, devices } from '@playwright/test';
import { BASE_URL, E2E_PORT, serverEnv } from './support/env';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // V8 without its optimising tiers (Maglev, Turbofan): a test's page lives seconds, too short for optimised
  // code to repay its compiling on the two cores the browsers share with the server. Measured: 5–9% less CPU
  // for the tier's busiest files (BENCHMARKS.md "Test suite").
  '--js-flags=--max-opt=1',
  // Flags to try without editing this file (space-separated), e.g. E2E_EXTRA_ARGS=--in-process-gpu.
  ...(process.env.E2E_EXTRA_ARGS ? process.env.E2E_EXTRA_ARGS.split(' ') : []),
];

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './support/global-setup.ts',
  // Two cores: the server, the browser and the runner share them.
  workers: 2,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  // Upper bounds for a failure, not waits: every assertion polls for its condition and passes as soon as it
  // holds. Measured: at load average ~30 (six other suites on the two cores) a page's first render took over
  // 7 s and the sidebar walk over 30 s, on a build that passes in a third of that when the machine is quiet.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // Runs on different ports (several people at once) keep their artifacts apart: each run empties its own.
  outputDir: process.env.E2E_PORT ? `test-results/${E2E_PORT}` : 'test-results',
  reporter: process.env.CI
    ? [['list']]
    : [
        ['list'],
        [
          'html',
          {
            open: 'never',
            outputFolder: process.env.E2E_PORT ? `playwright-report/${E2E_PORT}` : 'playwright-report',
          },
        ],
      ],
  use: {
    baseURL: BASE_URL,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
    // No trace on a first attempt: recording one (screencast frames and DOM snapshots of every action, then
    // thrown away when the test passes) made the same 37 tests take 11.1 min against 7.3 min without, run side
    // by side at load ~43 (BENCHMARKS.md "Test suite"). A retry (CI) records one; locally, for a failure,
    // E2E_TRACE=retain-on-failure. A failure always leaves its screenshot and error context.
    trace:
      (process.env.E2E_TRACE as 'on' | 'retain-on-failure' | 'on-first-retry' | undefined) ??
      'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH, args: chromiumArgs },
  },
  webServer: {
    // The real server, and after it the run's temporary folders removed (support/serve.ts); with DATABASE_URL,
    // on a fresh database on that PostgreSQL server for this run, dropped after it.
    command: 'node --import tsx support/serve.ts',
    url: `${BASE_URL}/readyz`,
    env: serverEnv,
    reuseExistingServer: false,
    // A fresh database's first start (initdb, migrations, the first admin) took 86 s at load 37 on 2 cores.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // Lets support/serve.ts (run by node itself, no CLI wrapper that would exit first) stop the server and
    // remove what the run made.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
  },
});
