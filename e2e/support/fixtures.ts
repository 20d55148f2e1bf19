import { randomUUID } from 'node:crypto';
import {
  type APIRequestContext,
  type APIResponse,
  test as base,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { ADMIN, BASE_URL } from './env';

/**
 * The shared test fixture of the browser tests. Import `test` and `expect` from here instead of
 * '@playwright/test':
 *
 *   test('…', async ({ page, signIn, createUser, api }) => {
 *     const viewer = await createUser('VIEWER');     // a fresh user via the API
 *     await signIn(page, viewer);                    // session seeded in localStorage, no form
 *     await page.goto('/users');
 *   });
 *
 * Every test gets unique data (see `uniqueName`), so tests never depend on each other or on order.
 * Also here: `toast(page, title)` (a sonner toast by its exact title; its text is under [data-description]),
 * `chooseOption(page, combobox, name)` (Radix selects), `apiLogin`, `expectJson`, `seedSession`.
 * Calling `signIn` twice on one page seeds both sessions in order: the last one wins.
 */

export type Role = 'ADMIN' | 'MANAGER' | 'VIEWER';

export interface Credentials {
  username: string;
  password: string;
}

/** What `POST /auth/api/v1/login` answers. */
export interface Session {
  token: string;
  expiresInSeconds: number;
}

/** A user made by `createUser`: the server's record plus the password it was created with. */
export interface CreatedUser extends Credentials {
  id: string;
  email: string | null;
  fullName: string | null;
  role: Role;
}

export interface NewUser {
  username?: string;
  password?: string;
  email?: string | null;
  fullName?: string | null;
}

export interface SignInOptions {
  /** Store this lifetime as `tokenExpiry` instead of the server's (e.g. 2 to watch the session expire). */
  expiresInSeconds?: number;
}

export const DEFAULT_PASSWORD = 'e2e-password-1';
export const LOGIN_PATH = '/auth/api/v1/login';
export const USERS_PATH = '/auth/api/v1/users';

/** A name no other test (or worker, or earlier run) uses: `prefix-1a2b3c4d`. Valid as a username. */
export function uniqueName(prefix = 'e2e'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Fails with the status and body in the message, then returns the parsed JSON. */
export async function expectJson<T>(response: APIResponse): Promise<T> {
  if (!response.ok()) {
    throw new Error(`${response.url()} → ${response.status()}: ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/** Signs in through the API (no token needed) and returns the session. */
export async function apiLogin(request: APIRequestContext, user: Credentials = ADMIN): Promise<Session> {
  const response = await request.post(LOGIN_PATH, {
    data: { username: user.username, password: user.password },
  });
  return expectJson<Session>(response);
}

/**
 * Puts a session into the page's localStorage before the console's own scripts run, exactly as the
 * login form would (`token`, `tokenExpiry` = now + lifetime in ms). It happens once per tab: a flag
 * in sessionStorage stops later reloads from bringing the session back after a logout or expiry.
 * Call it before the first `page.goto`.
 */
export async function seedSession(page: Page, origin: string, token: string, expiry: number): Promise<void> {
  const flag = `e2e-seeded-${randomUUID()}`;
  await page.addInitScript(
    (args) => {
      if (window.location.origin !== args.origin) return;
      try {
        if (window.sessionStorage.getItem(args.flag)) return;
        window.sessionStorage.setItem(args.flag, '1');
        window.localStorage.setItem('token', args.token);
        window.localStorage.setItem('tokenExpiry', String(args.expiry));
      } catch {
        // about:blank and other opaque origins have no storage.
      }
    },
    { origin, flag, token, expiry },
  );
}

/**
 * The newest sonner toast whose title is exactly `title` (sonner renders the newest first, so a second
 * identical toast — two lookups in a row — does not trip strict mode). Its text is under [data-description].
 */
export function toast(page: Page, title: string) {
  return page
    .locator('[data-sonner-toast]')
    .filter({ has: page.locator('[data-title]').getByText(title, { exact: true }) })
    .first();
}

/**
 * `locator` (e.g. a toast) only while it contains `text` (case-sensitive). Expect it visible for a transient
 * element instead of `toBeVisible()` then `toContainText()`: a toast lives 4 s (spec section 9), and on a loaded
 * machine (load 40 on two cores) the second assertion's polls came after it had gone, so one assertion checks both.
 */
export function seenWith(locator: Locator, text: string): Locator {
  return locator.filter({ hasText: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
}

/** Opens a Radix select (a combobox) and picks an option by its visible name. */
export async function chooseOption(page: Page, combobox: ReturnType<Page['locator']>, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
}

interface WorkerFixtures {
  /**
   * The admin's session, signed in once per worker and reused by every test of that worker (`api`, and `signIn`
   * without a user). A test that signs out in the console ends its session on the server (POST
   * /auth/api/v1/logout), so such a test signs in with a session of its own; each sign-in costs an Argon2
   * verification on the server: two per test before this, on the two cores the browsers need.
   */
  adminSession: () => Promise<{ session: Session; obtainedAt: number }>;
}

interface Fixtures {
  /** A request context signed in as the admin: every call carries `Authorization: Bearer …`. */
  api: APIRequestContext;
  /** A request context signed in as someone else (disposed after the test). */
  apiAs: (user: Credentials) => Promise<APIRequestContext>;
  /** Fast sign-in: API login, then the session is seeded into the page's storage. Defaults to the admin. */
  signIn: (page: Page, user?: Credentials, options?: SignInOptions) => Promise<Session>;
  /** Signs in the way a person does: /login, the form, 'Sign in', and waits for '/'. */
  signInThroughForm: (page: Page, user?: Credentials) => Promise<void>;
  /** Creates a user with a unique username through the API (as the admin). Defaults to VIEWER. */
  createUser: (role?: Role, fields?: NewUser) => Promise<CreatedUser>;
}

/** The same credentials as the admin's (by username: a test may pass a copy of ADMIN). */
function isAdmin(user: Credentials): boolean {
  return user.username === ADMIN.username && user.password === ADMIN.password;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  adminSession: [
    async ({ playwright }, use) => {
      let cached: Promise<{ session: Session; obtainedAt: number }> | undefined;
      await use(() => {
        cached ??= (async () => {
          const anonymous = await playwright.request.newContext({ baseURL: BASE_URL });
          const session = await apiLogin(anonymous, ADMIN).finally(() => anonymous.dispose());
          return { session, obtainedAt: Date.now() };
        })();
        // A failed sign-in is not cached: the next test tries again and reports its own failure.
        cached.catch(() => {
          cached = undefined;
        });
        return cached;
      });
    },
    { scope: 'worker' },
  ],

  apiAs: async ({ playwright, baseURL, adminSession }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async (user) => {
      let token: string;
      if (isAdmin(user)) token = (await adminSession()).session.token;
      else {
        const anonymous = await playwright.request.newContext({ baseURL });
        token = (await apiLogin(anonymous, user).finally(() => anonymous.dispose())).token;
      }
      const context = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: { Authorization: `Bearer ${token}` },
      });
      contexts.push(context);
      return context;
    });
    await Promise.all(contexts.map((c) => c.dispose()));
  },

  api: async ({ apiAs }, use) => {
    await use(await apiAs(ADMIN));
  },

  signIn: async ({ request, baseURL, adminSession }, use) => {
    await use(async (page, user = ADMIN, options = {}) => {
      let session: Session;
      if (isAdmin(user)) {
        // What is left of the cached session's lifetime, as the console would store it after its own sign-in.
        const cached = await adminSession();
        const elapsed = Math.floor((Date.now() - cached.obtainedAt) / 1000);
        session = { ...cached.session, expiresInSeconds: cached.session.expiresInSeconds - elapsed };
      } else session = await apiLogin(request, user);
      const lifetime = options.expiresInSeconds ?? session.expiresInSeconds;
      await seedSession(page, new URL(baseURL as string).origin, session.token, Date.now() + lifetime * 1000);
      return session;
    });
  },

  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring pattern.
  signInThroughForm: async ({}, use) => {
    await use(async (page, user = ADMIN) => {
      await page.goto('/login');
      await page.getByLabel('Username').fill(user.username);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL('/');
    });
  },

  createUser: async ({ api }, use) => {
    await use(async (role = 'VIEWER', fields = {}) => {
      const password = fields.password ?? DEFAULT_PASSWORD;
      const body = {
        username: fields.username ?? uniqueName(role.toLowerCase()),
        password,
        email: fields.email ?? null,
        fullName: fields.fullName ?? null,
        role,
      };
      const user = await expectJson<Omit<CreatedUser, 'password'>>(
        await api.post(USERS_PATH, { data: body }),
      );
      return { ...user, password };
    });
  },
});

export { ADMIN, expect };
