import { ADMIN, expect, LOGIN_PATH, test, toast } from './support/fixtures';

// Spec section 2 "Login", 4 "Session", 5 "Login", 8 (INVALID_CREDENTIALS).
test.describe.configure({ mode: 'parallel' });

const storage = (page: import('@playwright/test').Page) =>
  page.evaluate(() => ({
    token: localStorage.getItem('token'),
    expiry: localStorage.getItem('tokenExpiry'),
    now: Date.now(),
  }));

test('shows the titles, the two fields and the footer', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Loyalty Admin' })).toBeVisible();
  await expect(page.getByText('Sign in to your account', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByLabel('Username')).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  await expect(
    page.getByText('Admin access only. Contact your system administrator for support.', { exact: true }),
  ).toBeVisible();
});

test('signing in greets the user, stores the session and goes to /', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(toast(page, 'Welcome back!')).toBeVisible();
  // Spec section 1: toasts appear top-center.
  await expect(page.locator('[data-sonner-toaster]')).toHaveAttribute('data-y-position', 'top');
  await expect(page.locator('[data-sonner-toaster]')).toHaveAttribute('data-x-position', 'center');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const { token, expiry, now } = await storage(page);
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  // now + expiresInSeconds * 1000 (8 hours by default), give or take the time the test took.
  expect(Number(expiry) - now).toBeGreaterThan(8 * 3600_000 - 60_000);
  expect(Number(expiry) - now).toBeLessThanOrEqual(8 * 3600_000);
});

test('a wrong password shows the invalid-credentials toast and stays on /login', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(toast(page, 'Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  expect((await storage(page)).token).toBeNull();
});

test('blank or whitespace fields stop at the first failure, inline and without a request', async ({
  page,
}) => {
  const logins: string[] = [];
  page.on('request', (r) => r.url().endsWith(LOGIN_PATH) && logins.push(r.url()));
  await page.goto('/login');
  const submit = page.getByRole('button', { name: 'Sign in', exact: true });
  const usernameError = page.getByText('Username is required', { exact: true });
  const passwordError = page.getByText('Password is required', { exact: true });

  await submit.click();
  await expect(usernameError).toBeVisible();
  await expect(passwordError).toBeHidden();
  await expect(page.getByLabel('Username')).toBeFocused();

  await page.getByLabel('Username').fill('   ');
  await page.getByLabel('Password').fill('   ');
  await submit.click();
  await expect(usernameError).toBeVisible();
  await expect(passwordError).toBeHidden();

  await page.getByLabel('Username').fill(ADMIN.username);
  await submit.click();
  await expect(passwordError).toBeVisible();
  await expect(usernameError).toBeHidden();
  await expect(page.getByLabel('Password')).toBeFocused();

  // Inline only: no toast repeats the message.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  expect(logins).toEqual([]);
});

test('the button reads Signing in... while the request runs', async ({ page }) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  const requestHeld = new Promise<void>((resolve) => {
    held = resolve;
  });
  await page.route(`**${LOGIN_PATH}`, async (route) => {
    held();
    await released;
    await route.continue();
  });

  await page.goto('/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await requestHeld;

  const busy = page.getByRole('button', { name: 'Signing in...' });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();
  await expect(page).toHaveURL('/');
});

test('a signed-in user who opens /login goes to /', async ({ page, signIn }) => {
  await signIn(page);
  await page.goto('/login');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});

test('every route but /login needs a session', async ({ page }) => {
  for (const path of ['/', '/users', '/audit', '/pos-keys']) {
    await page.goto(path);
    await expect(page).toHaveURL('/login');
  }
  // A token the console must treat as none (spec section 4).
  await page.evaluate(() => localStorage.setItem('token', 'null'));
  await page.goto('/users');
  await expect(page).toHaveURL('/login');
});

/** Signs in on the open /login page through the form, as a person does. */
async function signInHere(page: import('@playwright/test').Page) {
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(toast(page, 'Welcome back!')).toBeVisible();
}

test('a bookmarked deep link opened without a session comes back after signing in, query and all', async ({
  page,
}) => {
  await page.goto('/accounts?search=deep-link');
  await expect(page).toHaveURL('/login');
  await signInHere(page);
  await expect(page).toHaveURL('/accounts?search=deep-link');
  await expect(page.getByLabel('Search accounts')).toHaveValue('deep-link');
});

test('signing in again after the session ran out goes back to the screen it ran out on', async ({
  page,
  signIn,
}) => {
  await page.clock.install();
  const { expiresInSeconds } = await signIn(page);
  await page.goto('/audit');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Accounts', exact: true })
    .click();
  await page.getByLabel('Search accounts').fill('where-i-was');
  await expect(page).toHaveURL('/accounts?search=where-i-was');
  const historyLength = await page.evaluate(() => history.length);
  await page.clock.fastForward(expiresInSeconds * 1000 + 1000);
  await expect(page).toHaveURL('/login');
  // Still replacing history (spec section 2): Back does not return to the screen without a session.
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await signInHere(page);
  await expect(page).toHaveURL('/accounts?search=where-i-was');
  await page.goBack();
  await expect(page).toHaveURL('/audit');
});

test('a return address that is not a path of the console is ignored: sign-in goes to /', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  // What only a script could put into this tab's history state: another site's address.
  await page.evaluate(() =>
    history.replaceState({ usr: { from: '//example.com/phish' }, key: 'x', idx: 0 }, ''),
  );
  await page.reload();
  await signInHere(page);
  await expect(page).toHaveURL('/');
});
