import type { APIRequestContext, Page } from '@playwright/test';
import { axeScan } from './support/axe';
import { expect, expectJson, test, uniqueName } from './support/fixtures';
import { addPoints, holdRequests } from './support/loyalty-api';

// Issue 9 in the console: an account's lots and expiry forecast, 'Pending' under the balance, and expiry
// operations in Operations (type filter, icon, red points).
test.describe.configure({ mode: 'parallel' });

const DAY_MS = 86_400_000;

/** A member imported with an opening lot of `points` expiring at `expiresAt` (PROGRAMME-API §4). */
async function importMember(api: APIRequestContext, points: number, expiresAt: Date) {
  const clientId = uniqueName('LOTS').toUpperCase();
  const body = `clientId,points,expiresAt\n${clientId},${points},${expiresAt.toISOString()}\n`;
  const answer = await expectJson<{ created: number }>(
    await api.post('/api/v1/imports/accounts', { headers: { 'content-type': 'text/csv' }, data: body }),
  );
  expect(answer.created).toBe(1);
  const { content } = await expectJson<{ content: Array<{ id: string; clientId: string }> }>(
    await api.get(`/api/v1/accounts?search=${clientId}`),
  );
  return content.find((account) => account.clientId === clientId)!;
}

/** A member whose imported lot of `points` has lapsed and been expired by a real expiry run. */
async function expiredMember(api: APIRequestContext, points: number) {
  // The import refuses an expiry already past when it reads the row, so the lot lapses a few seconds from
  // now, a margin for a loaded machine (two seconds were not always enough to reach the server); then ask
  // for runs until one expires it (bounded by the test's timeout).
  const account = await importMember(api, points, new Date(Date.now() + 6_000));
  await expect
    .poll(async () => {
      await api.post('/api/v1/admin/points/expire');
      const ops = await expectJson<{ content: Array<{ type: string; points: string }> }>(
        await api.get(`/api/v1/operations?accountId=${account.id}&type=expiry`),
      );
      return ops.content.map((o) => `${o.type} ${o.points}`);
    })
    .toEqual([`expiry -${points}.00`]);
  return account;
}

async function openRowAction(page: Page, clientId: string, item: string) {
  await page.goto('/accounts');
  await page.getByLabel('Search accounts').fill(clientId);
  await expect(page.getByRole('table', { name: 'Accounts' }).getByRole('row')).toHaveCount(2);
  await page.getByRole('button', { name: `Actions for ${clientId}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('View Lots lists the lots with their dates and the 30/60/90-day forecast', async ({ page, api }) => {
  const account = await importMember(api, 25, new Date(Date.now() + 20 * DAY_MS));
  await addPoints(api, account.id, 10);
  await openRowAction(page, account.clientId, 'View Lots');

  const dialog = page.getByRole('dialog', { name: 'Lots' });
  await expect(dialog).toContainText(account.clientId);
  const table = dialog.getByRole('table', { name: `Lots of ${account.clientId}` });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Earned',
    'Available from',
    'Expires',
    'Points',
    'Remaining',
    'Status',
    'Actions',
  ]);
  await expect(table.locator('tbody tr')).toHaveCount(2);
  // Newest first: the manual credit never expires (unless a settings test had set an expiry for the few
  // seconds it takes, then a ten-year one: the lot's own answer says which); the imported lot expires in 20 days.
  const lots = await expectJson<{ content: Array<{ expiresAt: string | null }> }>(
    await api.get(`/api/v1/accounts/${account.id}/lots`),
  );
  const expires = lots.content[0]!.expiresAt;
  await expect(table.locator('tbody tr').nth(0)).toContainText(
    expires === null ? 'Never' : String(new Date(expires).getUTCFullYear()),
  );
  await expect(table.locator('tbody tr').nth(0)).toContainText('10 pts10 ptsopen');
  await expect(table.locator('tbody tr').nth(1)).toContainText('25 pts25 ptsopen');
  // The imported lot expires at a time of day: its date shows that instant on hover, as Earned does.
  await expect(table.locator('tbody tr').nth(1).getByRole('cell').nth(2).locator('[title]')).toHaveAttribute(
    'title',
    /\d{1,2}:\d{2}/,
  );
  const forecast = dialog.getByRole('region', { name: 'Expiry forecast' });
  await expect(forecast).toContainText('30 days25 pts60 days25 pts90 days25 pts');

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('View Lots: ten-digit points show whole in the table at 1280 px and in the forecast at 390 px', async ({
  page,
  api,
}) => {
  const account = await importMember(api, 25, new Date(Date.now() + 20 * DAY_MS));
  // No import books that much: the dialog's answers get the figures, and the boxes are measured.
  await page.route(`**/api/v1/accounts/${account.id}/lots?*`, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const lot of body.content) Object.assign(lot, { points: 9999999999.99, remaining: 1234567890.12 });
    await route.fulfill({ response, json: body });
  });
  await page.route(`**/api/v1/accounts/${account.id}/expiry-forecast`, (route) =>
    route.fulfill({ json: { in30Days: 1234567890.12, in60Days: 2345678901.23, in90Days: 9999999999.99 } }),
  );
  await openRowAction(page, account.clientId, 'View Lots');
  const dialog = page.getByRole('dialog', { name: 'Lots' });
  const cells = dialog.locator('tbody tr').first().getByRole('cell');
  await expect(cells.nth(3)).toHaveText('9,999,999,999.99 pts');
  await expect(cells.nth(4)).toHaveText('1,234,567,890.12 pts');
  // Flexible columns cut them to '9,999,999,999.9…'.
  for (const n of [3, 4])
    expect(await cells.nth(n).evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  const forecast = dialog.getByRole('region', { name: 'Expiry forecast' });
  await expect(forecast).toContainText('90 days9,999,999,999.99 pts');
  // Three columns on a phone: each figure ran out of its box over the next one.
  const outside = await forecast.locator('dd').evaluateAll((dds) =>
    dds
      .filter((dd) => {
        const range = document.createRange();
        range.selectNodeContents(dd);
        const text = range.getBoundingClientRect();
        const box = dd.parentElement!.getBoundingClientRect();
        return text.left < box.left || text.right > box.right;
      })
      .map((dd) => dd.textContent),
  );
  expect(outside).toHaveLength(0);
  // The dates whole too where the table scrolls sideways ('Nov 29, 2…' in 104 px columns).
  for (const n of [0, 1, 2]) {
    const whole = await cells
      .nth(n)
      .evaluate((td) => [td, ...td.querySelectorAll('*')].every((e) => e.scrollWidth <= e.clientWidth));
    expect(whole, `date column ${n}`).toBe(true);
  }
});

test("View Lots traces a lot: its credit operation in Operations, and 'Taken by' what took its points", async ({
  page,
  api,
}) => {
  const account = await expiredMember(api, 30);
  const [lot] = (
    await expectJson<{ content: Array<{ id: string; creditOperationId: string }> }>(
      await api.get(`/api/v1/accounts/${account.id}/lots`),
    )
  ).content;
  const gate = await holdRequests(
    page,
    `**/api/v1/accounts/${account.id}/lots/${lot!.id}/consumptions*`,
    'GET',
  );
  await openRowAction(page, account.clientId, 'View Lots');
  const lots = page.getByRole('dialog', { name: 'Lots' });
  const row = lots.getByRole('table', { name: `Lots of ${account.clientId}` }).locator('tbody tr');
  await expect(row).toHaveCount(1);
  const menu = row.getByRole('button', { name: /^Actions for the lot of / });

  // What took its points: the expiry run, in a dialog over the lots, loading first.
  await menu.click();
  await page.getByRole('menuitem', { name: 'Taken by' }).click();
  const trace = page.getByRole('dialog', { name: 'Taken by' });
  const taken = trace.getByRole('table', { name: 'Operations that took points from the lot' });
  await expect(taken).toHaveAttribute('aria-busy', 'true');
  await expect(taken.getByTestId('skeleton-row').first()).toBeVisible();
  gate.release();
  await expect(taken.getByRole('columnheader')).toHaveText(['Type', 'Points', 'Date', 'Operation ID']);
  await expect(taken.locator('tbody tr')).toHaveCount(1);
  await expect(taken.locator('tbody tr').first()).toContainText('Expiry');
  await expect(taken.locator('tbody tr').first()).toContainText('30 pts');
  // The lot's credit, named there too.
  await expect(trace.getByRole('link', { name: lot!.creditOperationId })).toBeVisible();
  expect((await axeScan(page, { include: '[role="dialog"]' })).violations).toEqual([]);
  // Escape closes only the trace; focus is back on the lot's menu in the lots.
  await page.keyboard.press('Escape');
  await expect(trace).toHaveCount(0);
  await expect(lots).toBeVisible();
  await expect(menu).toBeFocused();

  // The credit operation: a link to Operations, searched by its id (the search takes operation ids).
  await menu.click();
  await page.getByRole('menuitem', { name: 'View Credit Operation' }).click();
  await expect(page).toHaveURL(new RegExp(`/operations\\?search=${lot!.creditOperationId}`));
  const operations = page.getByRole('table', { name: 'Operations' }).locator('tbody tr');
  await expect(operations).toHaveCount(1);
  await expect(operations.first()).toContainText('+30');
});

test("two lots of one minute have menus a screen reader tells apart: each names the lot's points", async ({
  page,
  api,
}) => {
  // An opening balance, then a credit in the same minute: the menus were both 'Actions for the lot earned …'.
  const account = await importMember(api, 25, new Date(Date.now() + 20 * DAY_MS));
  await addPoints(api, account.id, 40, 'Welcome gift');
  await openRowAction(page, account.clientId, 'View Lots');
  const menus = page
    .getByRole('dialog', { name: 'Lots' })
    .getByRole('button', { name: /^Actions for the lot of / });
  await expect(menus).toHaveCount(2);
  const names = await menus.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
  expect(new Set(names).size).toBe(2);
  expect(names.join(' | ')).toMatch(/lot of 40 pts earned .*, 40 pts left/);
});

test("'Taken by' of a lot nothing took from says so, and fits a phone", async ({ page, api }) => {
  const account = await importMember(api, 25, new Date(Date.now() + 20 * DAY_MS));
  await page.setViewportSize({ width: 390, height: 844 });
  await openRowAction(page, account.clientId, 'View Lots');
  const lots = page.getByRole('dialog', { name: 'Lots' });
  // The lot's ⋯ menu stays at the right edge however far the table scrolls.
  await lots
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^Actions for the lot of / })
    .click();
  await page.getByRole('menuitem', { name: 'Taken by' }).click();
  const trace = page.getByRole('dialog', { name: 'Taken by' });
  await expect(trace).toContainText('Nothing has been taken from this lot.');
  const box = await trace.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test("an expiry run's operation shows in Operations: type filter, icon and red points", async ({
  page,
  api,
}) => {
  const account = await expiredMember(api, 30);

  await openRowAction(page, account.clientId, 'View Operations');
  const row = page.getByRole('dialog', { name: 'Operations' }).locator('tbody tr').first();
  await expect(row).toContainText('Expiry');
  await expect(row.getByText('-30', { exact: true })).toHaveClass(/text-red-600/);

  await page.goto('/operations');
  await page.getByRole('combobox', { name: 'Filter by type' }).click();
  await page.getByRole('option', { name: 'expiry' }).click();
  const first = page.getByRole('table', { name: 'Operations' }).locator('tbody tr').first();
  await expect(first).toContainText('Expiry');
  await expect(first.locator('svg.text-red-600').first()).toBeVisible();
});

test("client lookup lists an expiry run's operation: 'Expiry', red points, and the balance it left", async ({
  page,
  api,
}) => {
  const account = await expiredMember(api, 30);
  await page.goto('/clients');
  await page.getByLabel('Card number, client ID or account ID').fill(account.clientId);
  await page.getByRole('button', { name: 'Search' }).click();

  const accounts = page.getByRole('region', { name: 'Accounts', exact: true });
  await expect(accounts.locator('tbody tr')).toHaveCount(1);
  await expect(accounts.locator('tbody tr').first().getByRole('cell').nth(1)).toHaveText('0 pts');
  const operations = page.getByRole('region', { name: 'Recent Operations', exact: true });
  // Newest first: the expiry above the import's opening credit.
  const rows = operations.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Expiry');
  await expect(rows.nth(0).getByText('-30', { exact: true })).toHaveClass(/text-red-600/);
  await expect(rows.nth(1).getByText('+30', { exact: true })).toHaveClass(/text-emerald-700/);
});

test("the dashboard's System Overview shows 'Expiring (30d)' from the lots", async ({ page, api }) => {
  // Other tests add lots on the same server at the same time, so the figure is checked against the
  // answer the page itself got (the latest one, should it refresh), which must include this lot.
  await importMember(api, 25, new Date(Date.now() + 20 * DAY_MS));
  let latest: number | undefined;
  page.on('response', async (response) => {
    if (!response.url().includes('/api/v1/analytics/bonuses-circulation') || !response.ok()) return;
    latest = ((await response.json()) as { expiring30Days: number }).expiring30Days;
  });
  await page.goto('/');
  await expect.poll(() => latest).toBeGreaterThanOrEqual(25);

  const item = page
    .locator('[data-slot=card]')
    .filter({ hasText: 'System Overview' })
    .locator('dt', { hasText: 'Expiring (30d)' })
    .locator('..');
  const en = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  await expect(async () => {
    expect(await item.textContent()).toBe(
      `Expiring (30d)${en.format(latest!)} ptspoints whose lots expire within 30 days`,
    );
  }).toPass();
});

test("the balance cell says 'Pending: N pts' when some points are not spendable yet", async ({
  page,
  api,
}) => {
  // A pending period is a global setting that would hold back every other test's points: the list's
  // answer gets a pending amount instead, and the cell's words are what is checked.
  const account = await importMember(api, 40, new Date(Date.now() + 90 * DAY_MS));
  await page.route('**/api/v1/accounts?*', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const row of body.content) if (row.id === account.id) row.pendingBalance = 12.5;
    await route.fulfill({ response, json: body });
  });
  await page.goto('/accounts');
  await page.getByLabel('Search accounts').fill(account.clientId);
  const cells = page.getByRole('table', { name: 'Accounts' }).locator('tbody tr').first().getByRole('cell');
  await expect(cells.nth(2)).toHaveText('40 ptsPending: 12.5 pts');
  // A list refresh still in the handler when the page closes must not fail the test.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
