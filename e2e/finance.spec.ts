import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { chooseOption, expect, test } from './support/fixtures';
import { accountWithCard, manualAccrual } from './support/programme-api';

// Issue 9 "Finance" (/reports): range and grouping, the roll-forward table, rates, outstanding, Export CSV.
test.describe.configure({ mode: 'parallel' });

const table = (page: Page) => page.getByRole('region', { name: 'Points flow (scrolls sideways)' });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const cells = async (page: Page, row: number) =>
  (await bodyRows(page).nth(row).locator('td').allTextContents()).map((t) =>
    Number(t.replace(/[,\s]/g, '').replace('−', '-')),
  );

test('the roll-forward opens each row where the last closed, by day and by month', async ({
  page,
  signIn,
  api,
}) => {
  const { account } = await accountWithCard(api);
  await manualAccrual(api, account.id, 42.5, 'Finance e2e');
  await signIn(page);
  await page.goto('/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Finance' })).toBeVisible();

  // Default: the last 30 UTC days, one row each, today last with at least the credit above as adjusted.
  await expect(bodyRows(page)).toHaveCount(30);
  const [, , , , , adjusted] = await cells(page, 29);
  expect(adjusted).toBeGreaterThanOrEqual(42.5);
  for (let i = 1; i < 30; i++) {
    const previous = await cells(page, i - 1);
    const [opening] = await cells(page, i);
    expect(opening).toBe(previous.at(-1));
  }
  await expect(page.getByText('Redemption rate')).toBeVisible();
  await expect(page.getByText('Expiring in 30 days')).toBeVisible();
  // The chart draws earned, redeemed and expired; a manual credit is none of them (axe-sweep draws one).
  await expect(
    page
      .getByRole('img', { name: /Points flow chart/ })
      .or(page.getByText('No points earned, redeemed or expired in this range.')),
  ).toBeVisible();

  await chooseOption(page, page.getByRole('combobox', { name: 'Range' }), 'Last 7 days');
  await expect(bodyRows(page)).toHaveCount(7);

  await chooseOption(page, page.getByRole('combobox', { name: 'Group' }), 'By month');
  const months = new Set([0, 6].map((d) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 7)));
  await expect(bodyRows(page)).toHaveCount(months.size);
  await expect(page.getByRole('combobox', { name: 'Range' })).toHaveText('Custom');
});

test('a range ending before it starts is refused on the spot; an empty range says so', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/reports');
  await expect(bodyRows(page)).toHaveCount(30);
  await page.getByLabel('From', { exact: true }).fill('2030-02-01');
  await expect(page.getByRole('alert')).toHaveText('The end date is before the start date.');
  // Outside what the report takes: said under the dates, not sent (the server's answer was a bare 400).
  await page.getByLabel('From', { exact: true }).fill('1999-12-01');
  await expect(page.getByRole('alert')).toHaveText('Choose dates from 2000 to 2099.');
  await page.getByLabel('From', { exact: true }).fill('2020-01-01');
  await page.getByLabel('To', { exact: true }).fill('2020-01-05');
  await expect(bodyRows(page)).toHaveCount(5);
  await expect(page.getByText('No points earned, redeemed or expired in this range.')).toBeVisible();
});

test('Outstanding: ten-digit figures read whole, each in its own box, at every width', async ({
  page,
  signIn,
}) => {
  // No test books that much: the report's answer gets the figures, and the boxes are measured.
  await page.route('**/api/v1/reports/points-flow?*', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.outstanding = { total: 9999999999.99, pending: 1234567890.12, expiring30Days: 999999999.99 };
    await route.fulfill({ response, json: body });
  });
  await signIn(page);
  await page.goto('/reports');
  const card = page.locator('[data-slot=card]').filter({ hasText: 'Points the programme owes now' });
  await expect(card).toContainText('9,999,999,999.99 pts');
  for (const width of [390, 768, 1280, 1440, 2560]) {
    await page.setViewportSize({ width, height: 900 });
    // Three columns in half of 1280 px: '123,456,789.12' ran 36 px out of its box over Pending's.
    const figures = await card.locator('dl > div').evaluateAll((boxes) =>
      boxes.map((box) => {
        const dd = box.querySelector('dd')!;
        const text = dd.textContent ?? '';
        const range = document.createRange();
        range.selectNodeContents(dd);
        const inside = range.getBoundingClientRect();
        const outer = box.getBoundingClientRect();
        // The number itself on one line: only 'pts' may go to the next.
        const node = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT).nextNode()!;
        const number = document.createRange();
        number.setStart(node, 0);
        number.setEnd(node, (node.textContent ?? '').indexOf(' pts'));
        const lines = new Set([...number.getClientRects()].map((r) => Math.round(r.top)));
        return { text, fits: inside.left >= outer.left && inside.right <= outer.right, lines: lines.size };
      }),
    );
    expect(figures.map((f) => [width, f.text.split(' pts')[0], f.fits, f.lines])).toEqual(
      ['9,999,999,999.99', '1,234,567,890.12', '999,999,999.99'].map((n) => [width, n, true, 1]),
    );
  }
});

test('Export CSV downloads the rows of the range shown', async ({ page, signIn }) => {
  await signIn(page);
  await page.goto('/reports');
  await chooseOption(page, page.getByRole('combobox', { name: 'Range' }), 'Last 7 days');
  await expect(bodyRows(page)).toHaveCount(7);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^points-flow-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path()) as string, 'utf8'))
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('period,opening,earned,redeemed,returned,expired,adjusted,closing');
  expect(lines).toHaveLength(8);
  expect(lines.at(-1)).toMatch(new RegExp(`^${new Date().toISOString().slice(0, 10)},`));
});

test('a viewer is not offered Finance and meets the wall at its URL', async ({
  page,
  signIn,
  createUser,
}) => {
  await signIn(page, await createUser('VIEWER'));
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Accounts' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Finance', exact: true })).toHaveCount(0);
  await page.goto('/reports');
  await expect(page.getByText('You do not have permission to view finance reports.')).toBeVisible();
});
