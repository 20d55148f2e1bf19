/**
 * Screenshots of every console screen, light and dark, at 1280×800 (desktop) and 390×844 (mobile).
 *
 *   npm run screenshots                          # build, then every route and state
 *   npm run screenshots -- --only /users,audit   # some routes (and their states) only
 *
 * Starts the built server like the browser tests do (own port 3290 or SCREENSHOTS_PORT, a throwaway
 * embedded database, a private copy of apps/web/dist), runs the seeders of screenshot-states.ts, and
 * writes screenshots/<screen>[--<state>]-<theme>-<viewport>.png. Not a test: it never fails on what it
 * sees, it reports page errors and lets a person look.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Browser, chromium, request } from '@playwright/test';
import {
  consoleRoutes,
  type ScreenshotState,
  screenshotSeeders,
  screenshotStates,
  type ViewportName,
} from './screenshot-states';
import { snapshotConsole } from './support/console-dist';
import resolveChromium from './support/global-setup';
import { removeOwnedFolders } from './support/owned-folders';

export type { ScreenshotSeeder, ScreenshotState } from './screenshot-states';
export { consoleRoutes, screenshotSeeders, screenshotStates };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(ROOT, 'screenshots');
const PORT = Number(process.env.SCREENSHOTS_PORT ?? 3290);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const ADMIN = { username: 'admin', password: 'screenshots-admin-password' };
const THEMES = ['light', 'dark'] as const;
const VIEWPORTS: Record<ViewportName, { width: number; height: number }> = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
};
// Same flags as playwright.config.ts (importing it would start the tests' own data folder).
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-sync'];

interface Server {
  url: string;
  stop: () => Promise<void>;
}

/** '/users', 'users', 'dashboard' and '/' all name a route. */
function normalizeRoute(raw: string): string {
  const name = raw.trim().replace(/^\/+/, '');
  const route = name === '' || name === 'dashboard' ? '/' : `/${name}`;
  if (!(consoleRoutes as readonly string[]).includes(route)) {
    throw new Error(`unknown route '${raw}'; known: ${consoleRoutes.join(', ')}`);
  }
  return route;
}

function fileName(route: string, state: string | null, theme: string, viewport: ViewportName): string {
  const screen = route === '/' ? 'dashboard' : route.slice(1);
  return `${screen}${state ? `--${state}` : ''}-${theme}-${viewport}.png`;
}

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`)).ok;
  } catch {
    return false;
  }
}

async function startServer(): Promise<Server> {
  if (await isUp(BASE_URL))
    throw new Error(`port ${PORT} is taken: stop that server or set SCREENSHOTS_PORT`);
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-screens-'));
  const webDist = snapshotConsole('loyalty-screens-web-');
  if (!webDist) throw new Error('apps/web/dist has no index.html: run `npm run build` first');
  const child: ChildProcess = spawn(
    join(ROOT, 'node_modules/.bin/tsx'),
    [join(ROOT, 'apps/server/src/server.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIST: webDist,
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(webDist, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  while (!(await isUp(BASE_URL))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url: BASE_URL, stop };
}

async function login(): Promise<{ token: string; expiresInSeconds: number }> {
  const response = await fetch(`${BASE_URL}/auth/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!response.ok) throw new Error(`admin login: ${response.status} ${await response.text()}`);
  return (await response.json()) as { token: string; expiresInSeconds: number };
}

async function seed(token: string): Promise<void> {
  const api = await request.newContext({
    baseURL: BASE_URL,
    extraHTTPHeaders: { Authorization: `Bearer ${token}` },
  });
  try {
    for (const seeder of screenshotSeeders) {
      // A screen still being built must not stop the others' pictures.
      await seeder(api).catch((error: unknown) =>
        console.warn(`seeder ${seeder.name || '?'} failed:`, error),
      );
    }
  } finally {
    await api.dispose();
  }
}

interface Shot {
  route: string;
  state: ScreenshotState | null;
  theme: (typeof THEMES)[number];
  viewport: ViewportName;
}

function plan(routes: string[]): Shot[] {
  const shots: Shot[] = [];
  for (const route of routes) {
    const states = [null, ...screenshotStates.filter((s) => s.route === route)];
    for (const state of states) {
      for (const viewport of state?.viewports ?? (['desktop', 'mobile'] as const)) {
        for (const theme of THEMES) shots.push({ route, state, theme, viewport });
      }
    }
  }
  return shots;
}

async function settle(page: import('@playwright/test').Page): Promise<void> {
  // Best effort: a screen that polls never goes idle, and a picture of it is still worth taking.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => {});
  await page.evaluate(() => document.fonts.ready);
}

async function take(browser: Browser, shot: Shot, session: { token: string; expiry: number }) {
  const signedIn = shot.route !== '/login';
  const localStorage: { name: string; value: string }[] = [{ name: 'theme', value: shot.theme }];
  if (signedIn) {
    localStorage.push(
      { name: 'token', value: session.token },
      { name: 'tokenExpiry', value: String(session.expiry) },
    );
  }
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: VIEWPORTS[shot.viewport],
    deviceScaleFactor: 1,
    colorScheme: shot.theme,
    locale: 'en-US',
    timezoneId: 'UTC',
    storageState: { cookies: [], origins: [{ origin: BASE_URL, localStorage }] },
  });
  const problems: string[] = [];
  const file = join(OUT_DIR, fileName(shot.route, shot.state?.name ?? null, shot.theme, shot.viewport));
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    await page.goto(shot.route);
    await settle(page);
    if (shot.state) {
      await shot.state.prepare(page);
      await settle(page);
    }
    await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  } catch (error) {
    problems.push(`not taken: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  } finally {
    await context.close();
  }
  return { file, problems };
}

export async function takeScreenshots(routes: string[] = [...consoleRoutes]): Promise<string[]> {
  await resolveChromium();
  mkdirSync(OUT_DIR, { recursive: true });
  const server = await startServer();
  let browser: Browser | undefined;
  const written: string[] = [];
  try {
    const { token, expiresInSeconds } = await login();
    await seed(token);
    const session = { token, expiry: Date.now() + expiresInSeconds * 1000 };
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH, args: CHROMIUM_ARGS });
    for (const shot of plan(routes)) {
      const { file, problems } = await take(browser, shot, session);
      if (!problems.some((p) => p.startsWith('not taken'))) written.push(file);
      for (const problem of problems) console.warn(`${relative(ROOT, file)}: ${problem}`);
    }
  } finally {
    await browser?.close();
    await server.stop();
    // The browser tests' folders, made when their support code was imported for the seeders: not used here.
    removeOwnedFolders();
  }
  return written;
}

async function main() {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const routes = values.only ? [...new Set(values.only.split(',').map(normalizeRoute))] : [...consoleRoutes];
  const files = await takeScreenshots(routes);
  console.log(`${files.length} screenshots:`);
  for (const file of files) console.log(`  ${relative(ROOT, file)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
