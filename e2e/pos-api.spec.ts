import type { FrameLocator, Page } from '@playwright/test';
import { axeScan } from './support/axe';
import { ADMIN, apiLogin, expect, seedSession, test, toast, uniqueName } from './support/fixtures';
import { createPosKey } from './support/pos-api-helpers';
import { accountWithCard } from './support/programme-api';

// Spec section 2 "POS API" (Swagger UI in the console's theme, POS endpoints first, Authorize with the API
// key), 6 and 9 (a POS API key stored locally, sent as a header on selected calls).
test.describe.configure({ mode: 'parallel' });

const docs = (page: Page) => page.frameLocator('iframe[title="POS API documentation"]');

async function authorize(frame: FrameLocator, apiKey: string) {
  await frame.getByRole('button', { name: 'Authorize' }).first().click();
  const scheme = frame.locator('.modal-ux form').filter({ hasText: 'X-API-Key' });
  await scheme.locator('input').fill(apiKey);
  await scheme.getByRole('button', { name: 'Apply credentials' }).click();
  await scheme.getByRole('button', { name: 'Close' }).click();
  await expect(frame.locator('.modal-ux')).toHaveCount(0);
}

/** Try it out on GET /pos/api/v1/cards/{cardNumber}; returns the live response's status cell and body. */
async function tryCardBalance(frame: FrameLocator | Page, cardNumber: string) {
  const operation = frame.locator('.opblock').filter({ hasText: '/pos/api/v1/cards/{cardNumber}' }).first();
  if (!(await operation.locator('.opblock-body').isVisible())) {
    await operation.locator('.opblock-summary').first().click();
  }
  await operation.locator('input[placeholder="cardNumber"]').fill(cardNumber);
  await operation.getByRole('button', { name: 'Execute' }).click();
  const live = operation.locator('.live-responses-table');
  return {
    status: live.locator('tbody .response-col_status').first(),
    body: live.locator('.microlight').first(),
  };
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('embeds Swagger UI with the Authorize hint, a new-tab link and the POS endpoints first', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto('/pos-api');
  await expect(page.getByRole('heading', { level: 1, name: 'POS API' })).toBeVisible();
  await expect(page.getByText(/POS calls are authorised with a POS API key: click Authorize/)).toContainText(
    'X-API-Key',
  );
  const link = page.getByRole('link', { name: 'Open in new tab' });
  await expect(link).toHaveAttribute('href', '/pos-api-docs.html');
  await expect(link).toHaveAttribute('target', '_blank');
  const frame = page.locator('iframe[title="POS API documentation"]');
  await expect(frame).toHaveAttribute('src', '/pos-api-docs.html');

  // Loaded inside the frame: the server's CSP (frame-ancestors 'self') lets the console embed it.
  await expect(docs(page).getByRole('heading', { name: /Loyalty Admin API/ })).toBeVisible();
  await expect(docs(page).getByRole('button', { name: 'Authorize' }).first()).toBeVisible();
  await expect(
    docs(page).locator('.opblock').filter({ hasText: '/pos/api/v1/accruals' }).first(),
  ).toBeVisible();
  // The POS API's section comes before the admin API's (the document lists Health and Auth first).
  const sections = docs(page).locator('.opblock-tag-section h3');
  await expect(sections.first()).toHaveText(/^POS API/);
  await expect(sections).toContainText(['POS API', 'Health', 'Auth', 'Users']);
  // The frame fills the content area below the hint.
  const box = await frame.boundingBox();
  expect(box && box.height >= 500 && box.width >= 900).toBe(true);
  expect(problems).toEqual([]);
});

test("Authorize with a real key: 'Try it out' reads a card's balance; a wrong key is refused", async ({
  page,
  api,
}) => {
  const posKey = await createPosKey(api, { name: uniqueName('Swagger') });
  const { card } = await accountWithCard(api);
  await page.goto('/pos-api');
  const frame = docs(page);

  const refused = await tryCardBalance(frame, card.number);
  await expect(refused.status).toHaveText('401');

  await authorize(frame, posKey.apiKey);
  const answer = await tryCardBalance(frame, card.number);
  await expect(answer.status).toHaveText('200');
  await expect(answer.body).toContainText(`"cardNumber": "${card.number}"`);
  await expect(answer.body).toContainText('"availableBalance": 0');
});

test('a key stored from View API Key is applied to Authorize; Forget key removes it', async ({
  page,
  api,
}) => {
  const posKey = await createPosKey(api, { name: uniqueName('Stored') });
  const { card } = await accountWithCard(api);
  await page.goto('/pos-keys');
  await page.getByLabel('Search POS keys').fill(posKey.name);
  await page.getByRole('button', { name: `Actions for ${posKey.name}` }).click();
  await page.getByRole('menuitem', { name: 'View API Key' }).click();
  const view = page.getByRole('dialog', { name: 'View API Key' });
  await expect(view.getByLabel('API Key', { exact: true })).toHaveValue(posKey.apiKey);
  await view.getByRole('button', { name: 'Use for POS API' }).click();
  await expect(toast(page, 'API key stored for the POS API page')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('posApiKey'))).toBe(posKey.apiKey);

  await page.getByRole('link', { name: 'POS API', exact: true }).click();
  await expect(
    page.getByText(`Stored key …${posKey.apiKey.slice(-4)} is applied to Authorize.`),
  ).toBeVisible();
  const frame = docs(page);
  const answer = await tryCardBalance(frame, card.number);
  await expect(answer.status).toHaveText('200');

  await page.getByRole('button', { name: 'Forget key' }).click();
  await expect(toast(page, 'Stored API key removed')).toBeVisible();
  await expect(page.getByText(/Stored key/)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('posApiKey'))).toBeNull();
  const again = await tryCardBalance(frame, card.number);
  await expect(again.status).toHaveText('401');
});

test("Logout forgets the till's key, stored for this page and kept by Swagger UI's Authorize", async ({
  page,
  api,
  request,
  baseURL,
}) => {
  // A session of its own: Logout ends it on the server, and the worker's shared one must live on.
  const own = await apiLogin(request, ADMIN);
  await seedSession(
    page,
    new URL(baseURL as string).origin,
    own.token,
    Date.now() + own.expiresInSeconds * 1000,
  );
  const posKey = await createPosKey(api, { name: uniqueName('Logout') });
  const { card } = await accountWithCard(api);
  await page.goto('/pos-api');
  await authorize(docs(page), posKey.apiKey);
  // As View API Key's 'Use for POS API' stores it.
  await page.evaluate((key) => localStorage.setItem('posApiKey', key), posKey.apiKey);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authorized'))).toContain(posKey.apiKey);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(
    await page.evaluate(() => [localStorage.getItem('posApiKey'), localStorage.getItem('authorized')]),
  ).toEqual([null, null]);
  // The documentation page needs no sign-in: it no longer calls as that till.
  await page.goto('/pos-api-docs.html');
  const answer = await tryCardBalance(page, card.number);
  await expect(answer.status).toHaveText('401');
});

test("the documentation follows the console's theme, both ways; 390 px fits", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/pos-api');
  const frame = docs(page);
  await expect(frame.getByRole('button', { name: 'Authorize' }).first()).toBeVisible();
  // The console's colours (src/index.css), not an inverted light page.
  const consoleColours = () =>
    page.evaluate(() => {
      const style = getComputedStyle(document.body);
      return { background: style.backgroundColor, text: style.color };
    });
  const dark = await consoleColours();
  await expect(frame.locator('html')).toHaveClass(/dark/);
  await expect(frame.locator('body')).toHaveCSS('background-color', dark.background);
  await expect(frame.locator('html')).not.toHaveCSS('filter', /invert/);
  await expect(frame.locator('.opblock-tag').first()).toHaveCSS('color', dark.text);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await expect(frame.locator('html')).not.toHaveClass(/dark/);
  const light = await consoleColours();
  expect(light.background).not.toBe(dark.background);
  await expect(frame.locator('body')).toHaveCSS('background-color', light.background);
  await expect(frame.locator('.opblock-tag').first()).toHaveCSS('color', light.text);
});

test('Swagger UI is downloaded on the POS API screen only', async ({ page }) => {
  const swaggerRequests: string[] = [];
  page.on('request', (request) => {
    if (/swagger-ui|pos-api-docs/.test(request.url())) swaggerRequests.push(request.url());
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.goto('/accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  expect(swaggerRequests).toEqual([]);
  await page.getByRole('link', { name: 'POS API', exact: true }).click();
  await expect(docs(page).getByRole('button', { name: 'Authorize' }).first()).toBeVisible();
  expect(swaggerRequests.some((url) => /\/assets\/swagger-ui-bundle-[\w-]+\.js$/.test(url))).toBe(true);
});

test('Swagger UI comes from the console build: compressed and cached for a year', async ({ page }) => {
  const bundle = page.waitForResponse((response) =>
    /\/assets\/swagger-ui-bundle-[\w-]+\.js$/.test(response.url()),
  );
  await page.goto('/pos-api');
  const response = await bundle;
  expect(response.status()).toBe(200);
  const headers = await response.allHeaders();
  expect(headers['content-encoding']).toBe('br');
  expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
  await expect(docs(page).getByRole('button', { name: 'Authorize' }).first()).toBeVisible();
});

test('the console around the documentation has no axe violations in either theme', async ({ page }) => {
  for (const theme of ['light', 'dark']) {
    await page.goto('/pos-api');
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
    await expect(docs(page).getByRole('button', { name: 'Authorize' }).first()).toBeVisible();
    // Only Swagger UI's own markup, inside its frame, is left out: the console's chrome is checked.
    const results = await axeScan(page, { exclude: ['iframe[title="POS API documentation"]'] });
    expect(
      results.violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
});
