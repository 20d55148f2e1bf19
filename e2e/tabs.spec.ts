import type { BrowserContext, Page, Request } from '@playwright/test';
import { ADMIN, apiLogin, expect, expectJson, test, uniqueName } from './support/fixtures';
import { createAccount, createCardholder } from './support/loyalty-api';
import { startWebhookReceiver } from './support/webhook-receiver';

// One browser profile, several tabs: one context, its pages the tabs. What one tab does (sign in, sign in as
// someone else, change the theme) reaches the others; a tab's figures and windows follow the server's clock.
test.describe.configure({ mode: 'parallel' });

const SHOTS = `test-results/${process.env.E2E_PORT ?? 'default'}/tabs`;
const HOUR = 3_600_000;

/** The sidebar's "Signed in as" box (components/layout/nav-user.tsx). */
const signedInAs = (page: Page) => page.locator('[data-slot="sidebar-footer"]');

async function fillLogin(page: Page, user: { username: string; password: string }) {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function twoTabs(context: BrowserContext): Promise<[Page, Page]> {
  return [await context.newPage(), await context.newPage()];
}

/** What a login answer says, seeded into a tab's storage as the login form stores it. */
async function storeToken(page: Page, token: string, expiresInSeconds: number) {
  await page.evaluate(
    ([t, s]) => {
      localStorage.setItem('token', t as string);
      localStorage.setItem('tokenExpiry', String(Date.now() + (s as number) * 1000));
    },
    [token, expiresInSeconds],
  );
}

test('a tab at /login goes on when another tab signs in', async ({ context }) => {
  const [a, b] = await twoTabs(context);
  await a.goto('/login');
  await b.goto('/login?x=1');
  await fillLogin(a, ADMIN);
  await expect(a).toHaveURL('/');
  // B offers no second sign-in: it goes on to the Dashboard as the one signed in.
  await expect(b).toHaveURL('/');
  await expect(signedInAs(b)).toContainText(ADMIN.username);
  await expect(b.getByRole('group', { name: 'Total Bonuses' })).toContainText('pts');
  await b.screenshot({ path: `${SHOTS}/login-followed-1280-light.png` });
});

test("a tab showing one user follows when the stored session becomes another user's", async ({
  context,
  request,
  createUser,
  signIn,
}) => {
  const manager = await createUser('MANAGER');
  const [a, b] = await twoTabs(context);
  await signIn(a);
  await a.goto('/accounts');
  await expect(signedInAs(a)).toContainText(ADMIN.username);
  await expect(a.getByRole('button', { name: 'Create Account' })).toBeVisible();
  // Another tab (a login form that answered late, say) stores the manager's session.
  const session = await apiLogin(request, manager);
  await b.goto('/pos-api');
  await storeToken(b, session.token, session.expiresInSeconds);
  // A shows nothing of the admin's any more: it is the manager's screen, on the same route.
  await expect(signedInAs(a)).toContainText(manager.username);
  await expect(signedInAs(a)).not.toContainText(ADMIN.username);
  await expect(a).toHaveURL('/accounts');
  // What A asks now goes as the manager.
  const listed = a.waitForRequest((r) => r.url().includes('/api/v1/accounts') && r.method() === 'GET');
  await a.reload();
  expect((await listed).headers().authorization).toBe(`Bearer ${session.token}`);
  await expect(a.getByText(/^Page 1 of \d+/)).toBeVisible();
  await a.screenshot({ path: `${SHOTS}/user-followed-1280-light.png` });
});

test("signing in over another user's still-valid session ends that session on the server", async ({
  context,
  request,
  createUser,
}) => {
  const manager = await createUser('MANAGER');
  // A session of its own: the worker's shared admin session must not be ended.
  const admin = await apiLogin(request, ADMIN);
  const [a, b] = await twoTabs(context);
  await b.goto('/login');
  // B's sign-in as the manager is held until the admin's session is in the profile's storage.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await b.route('**/auth/api/v1/login', async (route) => {
    await held;
    await route.continue();
  });
  const answered = b.waitForResponse('**/auth/api/v1/login');
  await fillLogin(b, manager);
  await a.goto('/pos-api');
  await storeToken(a, admin.token, admin.expiresInSeconds);
  const logout = b.waitForRequest('**/auth/api/v1/logout');
  release();
  await answered;
  expect((await logout).headers().authorization).toBe(`Bearer ${admin.token}`);
  await expect(b).toHaveURL('/');
  await expect(signedInAs(b)).toContainText(manager.username);
  // The admin's token, overwritten in storage, no longer answers.
  await expect
    .poll(async () =>
      (
        await request.get('/api/v1/accounts', { headers: { Authorization: `Bearer ${admin.token}` } })
      ).status(),
    )
    .toBe(401);
});

test('switching back to a tab shows what another tab changed meanwhile', async ({ context, signIn, api }) => {
  const [a] = await twoTabs(context);
  const clientId = uniqueName('tabs');
  await a.clock.install();
  await signIn(a);
  await a.goto(`/accounts?search=${clientId}`);
  await expect(a.getByText('No results.')).toBeVisible();
  // Made elsewhere (another tab, another person) while A was in the background.
  await createAccount(api, clientId);
  await a.clock.fastForward(15_000);
  // The tab shown again (React Query's focus manager listens to visibilitychange).
  await a.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
  await expect(a.getByRole('cell', { name: clientId, exact: true })).toBeVisible();
});

test("the 24 h figures count what was made a moment ago, with the browser's clock 3 h slow", async ({
  page,
  signIn,
  api,
}) => {
  await page.clock.install({ time: Date.now() - 3 * HOUR });
  await createCardholder(api, 10);
  await signIn(page, ADMIN, { expiresInSeconds: 8 * HOUR });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const card = page.getByRole('group', { name: 'Operations (24h)' });
  await expect(card).toContainText(/Volume: [1-9][\d,.]* pts/);
  await expect(card).not.toHaveText(/^Operations \(24h\)0Volume/);
  await page.screenshot({ path: `${SHOTS}/slow-clock-390-dark.png`, fullPage: true });
});

test('a call answered 401 for the token a sign-in in another tab replaced signs no one out', async ({
  context,
  request,
  createUser,
  signIn,
}) => {
  // A user of its own: its first token is ended below, which must not be a shared one.
  const manager = await createUser('MANAGER');
  const [a, b] = await twoTabs(context);
  const first = await signIn(a, manager);
  await a.goto('/accounts');
  await expect(a.getByText(/^Page 1 of \d+/)).toBeVisible();
  // A's next list call is held in the browser until the token it carries has been replaced and ended.
  const held: Array<() => Promise<void>> = [];
  await a.route('**/api/v1/accounts?**', async (route) => {
    // The first call only; any after it (a retry) goes as it is.
    if (held.length > 0) return route.continue();
    held.push(() => route.continue());
  });
  await a.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(() => held.length).toBe(1);
  // What a sign-in in tab B does (session.ts storeSession): the same user's new token stored, the old ended.
  const second = await apiLogin(request, manager);
  await b.goto('/pos-api');
  await storeToken(b, second.token, second.expiresInSeconds);
  const ended = await request.post('/auth/api/v1/logout', {
    headers: { Authorization: `Bearer ${first.token}` },
  });
  expect(ended.ok()).toBe(true);
  const refused = a.waitForResponse((r) => r.url().includes('/api/v1/accounts?') && r.status() === 401);
  await held[0]!();
  await refused;
  // Before: A's 401 ended the session, which removed B's new token and signed both tabs out.
  await expect(a.locator('main [aria-busy="true"]')).toHaveCount(0);
  await expect(a).toHaveURL('/accounts');
  expect(await b.evaluate(() => localStorage.getItem('token'))).toBe(second.token);
  await b.reload();
  await expect(signedInAs(b)).toContainText(manager.username);
});

// A retry an hour away, and one overdue long past a running attempt (as on a disabled endpoint, which sends
// nothing until it is enabled): neither is near, so neither is asked about every 2 s.
for (const [waiting, nextIn] of [
  ['a retry an hour away', HOUR],
  ['a retry overdue by five minutes', -5 * 60_000],
] as const) {
  test(`the Deliveries drawer asks again only when a retry is near: ${waiting}`, async ({
    page,
    signIn,
    api,
  }) => {
    const receiver = await startWebhookReceiver(200);
    try {
      const url = receiver.url(uniqueName('tabs-hook'));
      const created = await expectJson<{ id: string }>(
        await api.post('/api/v1/webhooks', { data: { url, eventTypes: ['points.expired'] } }),
      );
      await expectJson(await api.post(`/api/v1/webhooks/${created.id}/test`));
      // The test event's delivery, shown as one that failed and waits for its retry.
      await page.route(`**/api/v1/webhooks/${created.id}/deliveries?**`, async (route) => {
        const response = await route.fetch();
        const body = await response.json();
        const now = Date.now();
        for (const delivery of body.content) {
          Object.assign(delivery, {
            status: 'pending',
            attempts: 1,
            lastAttemptAt: new Date(now - 10 * 60_000).toISOString(),
            nextAttemptAt: new Date(now + nextIn).toISOString(),
            responseStatus: 500,
          });
        }
        await route.fulfill({ response, json: body });
      });
      const lists: Request[] = [];
      page.on('request', (r) => {
        if (r.url().includes(`/api/v1/webhooks/${created.id}/deliveries?`)) lists.push(r);
      });
      await page.clock.install();
      await signIn(page);
      await page.goto('/webhooks');
      await page.getByRole('button', { name: `Actions for ${url}` }).click();
      await page.getByRole('menuitem', { name: 'View deliveries', exact: true }).click();
      const drawer = page.getByRole('dialog', { name: 'Deliveries' });
      await expect(drawer.getByRole('listitem', { name: 'webhook.test delivery' })).toBeVisible();
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      const before = lists.length;
      // 29 s of the page's clock: a delivery that is not near asks no more than once (at most every 30 s).
      for (let tick = 0; tick < 29; tick++) await page.clock.runFor(1000);
      expect(lists.length - before).toBeLessThanOrEqual(1);
      // It still asks: 30 s after the last answer.
      for (let tick = 0; tick < 2; tick++) await page.clock.runFor(1000);
      await expect.poll(() => lists.length - before).toBeGreaterThanOrEqual(1);
      if (nextIn > 0) await drawer.screenshot({ path: `${SHOTS}/deliveries-waiting-1280-light.png` });
    } finally {
      // A list call still on its way when the page closes has nothing to answer.
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await receiver.close();
    }
  });
}

test('a theme chosen in one tab applies in the others', async ({ context, signIn }) => {
  const [a, b] = await twoTabs(context);
  await a.emulateMedia({ colorScheme: 'light' });
  await b.emulateMedia({ colorScheme: 'light' });
  await signIn(a);
  await signIn(b);
  await a.goto('/');
  await b.goto('/');
  await expect(b.locator('html')).not.toHaveClass(/\bdark\b/);
  await a.getByRole('button', { name: 'Toggle theme' }).click();
  await expect(a.locator('html')).toHaveClass(/\bdark\b/);
  await expect(b.locator('html')).toHaveClass(/\bdark\b/);
  await b.setViewportSize({ width: 390, height: 844 });
  await b.screenshot({ path: `${SHOTS}/theme-followed-390-dark.png` });
});
