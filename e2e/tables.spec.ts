import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { axeScan } from './support/axe';
import { chooseOption, expect, test, toast, uniqueName } from './support/fixtures';
import { blockCard, createAccount, issueCard } from './support/loyalty-api';
import { createPosKey, ensureRulesetInForce, posAccrual } from './support/pos-api-helpers';
import { manualAccrual } from './support/programme-api';

// Issue 16 "tables that hold their shape": widths from the columns, ids on one line with tooltip and
// copy, row actions in reach at 390 px, selection only with bulk actions (block selected, export selected).
test.describe.configure({ mode: 'parallel' });

const cardsTable = (page: Page) => page.getByRole('table', { name: 'Cards' });
const cardRow = (page: Page, number: string) =>
  cardsTable(page)
    .getByRole('row')
    .filter({ has: page.getByText(number, { exact: true }) });

/** Each header cell's width, rounded to the pixel. */
async function columnWidths(table: Locator): Promise<number[]> {
  const headers = table.getByRole('columnheader');
  const widths: number[] = [];
  for (let i = 0; i < (await headers.count()); i++) {
    const box = await headers.nth(i).boundingBox();
    widths.push(Math.round(box?.width ?? -1));
  }
  return widths;
}

/** An id value that shows on one line and, when the column is narrower, cut (its text wider than its box). */
async function idValueShape(value: Locator) {
  return value.evaluate((el) => ({
    lines: Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
    cut: el.scrollWidth > el.clientWidth,
    whiteSpace: getComputedStyle(el).whiteSpace,
  }));
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await axeScan(page);
  return results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('/cards keeps its column widths across filters, an empty result and a long block reason', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  const active = await issueCard(api, account.id);
  const blocked = await issueCard(api, account.id);
  await blockCard(
    api,
    blocked.id,
    'Reported stolen at the Main Street store on a busy Saturday afternoon, twice',
  );

  await page.goto('/cards');
  const search = page.getByLabel('Search cards');
  await search.fill(account.id);
  await expect(cardRow(page, active.number)).toBeVisible();
  await expect(cardRow(page, blocked.number)).toBeVisible();
  const both = await columnWidths(cardsTable(page));

  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by status' }), 'Active');
  await expect(cardRow(page, blocked.number)).toHaveCount(0);
  expect(await columnWidths(cardsTable(page))).toEqual(both);

  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by status' }), 'Pending');
  await expect(cardsTable(page)).toContainText('No results.');
  expect(await columnWidths(cardsTable(page))).toEqual(both);

  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by status' }), 'All statuses');
  await search.fill('0000000000000000');
  await expect(cardsTable(page)).toContainText('No results.');
  expect(await columnWidths(cardsTable(page))).toEqual(both);
});

test('/operations: a long adjustment reason does not squeeze receipt ids; widths hold with and without it', async ({
  page,
  api,
  request,
}) => {
  await ensureRulesetInForce(api);
  const account = await createAccount(api);
  const card = await issueCard(api, account.id);
  const till = await createPosKey(api, { name: uniqueName('Till'), address: '1 Long Receipt Road' });
  const receiptId = uniqueName('RECEIPT-2026-11-23-STORE-0042-LANE-07');
  await posAccrual(request, till.apiKey, {
    operationId: uniqueName('op-long-receipt'),
    cardNumber: card.number,
    receipt: { receiptId, items: [{ sku: 'MILK-1L', category: 'Dairy', quantity: 2, price: 1.49 }] },
  });
  const reason =
    'Goodwill after the Saturday outage: the client waited forty minutes at the till and asked twice';
  await manualAccrual(api, account.id, 25, reason);

  await page.goto('/operations');
  const table = page.getByRole('table', { name: 'Operations' });
  await page.getByLabel('Search operations').fill(card.number);
  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by type' }), 'accrual');
  const receipt = table.getByText(receiptId, { exact: true });
  await expect(receipt).toBeVisible();
  await expect(table.getByText(reason)).toHaveCount(0);
  const accrualOnly = await columnWidths(table);
  expect(await idValueShape(receipt)).toEqual({ lines: 1, cut: true, whiteSpace: 'nowrap' });

  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by type' }), 'All types');
  await expect(table.getByText(reason)).toBeVisible();
  expect(await columnWidths(table)).toEqual(accrualOnly);
  expect(await idValueShape(receipt)).toEqual({ lines: 1, cut: true, whiteSpace: 'nowrap' });
});

test('an id cut by its column shows the full value in a tooltip and copies it from the keyboard', async ({
  page,
  api,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Long enough to be cut in its column (the Client ID column stands for the account since issue 16).
  const account = await createAccount(api, uniqueName('client-of-the-harbour-mall-loyalty-programme'));
  const card = await issueCard(api, account.id);
  await page.goto('/cards');
  await page.getByLabel('Search cards').fill(card.number);
  const row = cardRow(page, card.number);
  // The cut value, around the client page link it holds.
  const accountValue = row.locator('[data-slot="id-cell-value"]').filter({ hasText: account.clientId });
  await expect(accountValue).toBeVisible();
  expect(await idValueShape(accountValue)).toEqual({ lines: 1, cut: true, whiteSpace: 'nowrap' });

  await accountValue.hover();
  await expect(page.getByRole('tooltip')).toHaveText(account.clientId);
  // Radix keeps a grace area towards the tooltip: leave it in steps, as a hand does.
  await page.mouse.move(5, 400, { steps: 4 });
  await page.mouse.move(6, 401);
  await expect(page.getByRole('tooltip')).toBeHidden();

  // By keyboard: Tab from the card number's copy button reaches the client ID's link (to the client page),
  // then its copy button, which names what it copies.
  // Tooltips close when a scroll moves their trigger (Radix); bring the row's controls fully into view first so
  // Tab has nothing to scroll (a focus that scrolls the table closed the tooltip on some runs).
  await row.getByRole('button', { name: 'Copy client ID' }).scrollIntoViewIfNeeded();
  await row.getByRole('button', { name: 'Copy card number' }).focus();
  await page.keyboard.press('Tab');
  await expect(row.getByRole('link', { name: account.clientId })).toBeFocused();
  await page.keyboard.press('Tab');
  const copy = row.getByRole('button', { name: 'Copy client ID' });
  await expect(copy).toBeFocused();
  // Focus shows the full value too (the card number's tooltip may still be on its way out).
  await expect(page.locator('[role=tooltip][data-state$=open]')).toHaveText(account.clientId);
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Copied')).toBeVisible();
  await expect(toast(page, 'Copied').locator('[data-description]')).toHaveText(account.clientId);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(account.clientId);
});

test('selection and the selected-row count only on tables with a bulk action', async ({ page }) => {
  await page.goto('/cards');
  await expect(page.getByRole('checkbox', { name: 'Select all' })).toBeVisible();
  await expect(page.getByText(/rows? selected\./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Block selected' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Export selected' })).toBeDisabled();
  for (const [route, name] of [
    ['/users', 'Users'],
    ['/operations', 'Operations'],
    ['/accounts', 'Accounts'],
    ['/pos-keys', 'POS keys'],
    ['/rulesets', 'Rulesets'],
  ] as const) {
    await page.goto(route);
    await expect(page.getByRole('table', { name })).toBeVisible();
    await expect(page.getByRole('table', { name }).locator('tbody tr').first()).toBeVisible();
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByText(/rows? selected/)).toHaveCount(0);
  }
});

test('Block selected: two cards, one reason, one call; both blocked and audited', async ({ page, api }) => {
  const account = await createAccount(api);
  const first = await issueCard(api, account.id);
  const second = await issueCard(api, account.id);
  await page.goto('/cards');
  await page.getByLabel('Search cards').fill(account.id);
  await expect(cardsTable(page).locator('tbody tr')).toHaveCount(2);
  await expect(cardRow(page, first.number)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await expect(page.getByText('2 of 2 rows selected.')).toBeVisible();

  await page.getByRole('button', { name: 'Block selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block 2 Cards', exact: true });
  await expect(dialog.getByRole('list', { name: 'Cards to block' })).toHaveText(
    new RegExp(`${first.number}|${second.number}`),
  );
  await expect(dialog.getByLabel('Block Reason')).toBeFocused();
  // A blank reason is refused like the single Block's.
  await dialog.getByRole('button', { name: 'Block 2 cards' }).click();
  await expect(toast(page, 'Block reason is required')).toBeVisible();

  const reason = uniqueName('Batch stolen from the store');
  await dialog.getByLabel('Block Reason').fill(reason);
  const calls: string[] = [];
  page.on(
    'request',
    (r) => r.url().includes('/block') && calls.push(`${r.method()} ${new URL(r.url()).pathname}`),
  );
  await dialog.getByRole('button', { name: 'Block 2 cards' }).click();
  await expect(toast(page, '2 cards blocked')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(calls).toEqual(['POST /api/v1/cards/block']);
  for (const card of [first, second]) {
    await expect(cardRow(page, card.number).getByRole('cell').nth(3)).toHaveText('Blocked');
    await expect(cardRow(page, card.number)).toContainText(reason);
  }
  await expect(page.getByText('0 of 2 rows selected.')).toBeVisible();

  for (const card of [first, second]) {
    const audit = await (
      await api.get('/api/v1/audit', { params: { targetType: 'card', targetId: card.id } })
    ).json();
    expect(audit.content.map((e: { message: string }) => e.message)).toContain(
      `Blocked card ${card.number}: ${reason}`,
    );
  }
});

test('Export selected downloads the selected rows as a CSV named after the screen and the date, formulas defused', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  const plain = await issueCard(api, account.id);
  const risky = await issueCard(api, account.id);
  await blockCard(api, risky.id, '=HYPERLINK("http://evil.example","click")');
  const numeric = await issueCard(api, account.id);
  await blockCard(api, numeric.id, '-0042');
  // A full-width ＝, which some spreadsheets fold to '=', and a reason that already starts with a quote.
  const wide = await issueCard(api, account.id);
  await blockCard(api, wide.id, '\uFF1DSUM(A1)');
  const quoted = await issueCard(api, account.id);
  await blockCard(api, quoted.id, "'=1+1");
  const unselected = await issueCard(api, account.id);
  // The search in the address: one fetch, so no later answer replaces the rows (and the selection) midway.
  await page.goto(`/cards?search=${account.id}`);
  await expect(cardsTable(page).locator('tbody tr')).toHaveCount(6);
  for (const card of [plain, risky, numeric, wide, quoted])
    await cardRow(page, card.number).getByRole('checkbox', { name: 'Select row' }).check();
  await expect(page.getByText('5 of 6 rows selected.')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export selected' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^cards-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toBe('Card Number,Account ID,Status,Issued At,Blocked At,Block Reason,Replaced By');
  expect(lines).toHaveLength(6);
  expect(csv).not.toContain(unselected.number);
  expect(lines.find((l) => l.startsWith(plain.number))).toMatch(
    new RegExp(`^${plain.number},${account.id},active,\\d{4}-[^,]+,,,$`),
  );
  // The reason starts with '=': a spreadsheet gets it as text (leading quote), quoted per RFC 4180.
  expect(lines.find((l) => l.startsWith(risky.number))).toContain(
    `,"'=HYPERLINK(""http://evil.example"",""click"")",`,
  );
  // Text that looks like a negative number is text too: a spreadsheet would make '-0042' the number -42.
  expect(lines.find((l) => l.startsWith(numeric.number))).toContain(",'-0042,");
  // The server's rule (needsDefusing in contracts): full-width starts are defused, and a quote before a
  // formula gets one more, so that the member import, which reads one off, gives the text back as it was.
  expect(lines.find((l) => l.startsWith(wide.number))).toContain(",'\uFF1DSUM(A1),");
  expect(lines.find((l) => l.startsWith(quoted.number))).toContain(",''=1+1,");
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('row actions stay on screen while the table scrolls sideways, with a hint saying so', async ({
    page,
    api,
  }) => {
    const account = await createAccount(api);
    const card = await issueCard(api, account.id);
    await page.goto('/cards');
    await page.getByLabel('Search cards').fill(card.number);
    const actions = page.getByRole('button', { name: `Actions for card ${card.number}` });
    await expect(actions).toBeVisible();
    await expect(page.getByTestId('scroll-hint')).toHaveText(
      'Scroll sideways for more columns; row actions stay on the right.',
    );
    const inView = async () => {
      const box = await actions.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 390;
    };
    expect(await inView()).toBe(true);
    // Scrolled to either end, the actions button stays where a thumb finds it.
    const region = page.getByRole('region', { name: 'Cards (scrolls sideways)' });
    await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    expect(await inView()).toBe(true);
    await region.evaluate((el) => el.scrollTo({ left: 0 }));
    expect(await inView()).toBe(true);
    await actions.click();
    await expect(page.getByRole('menuitem', { name: 'Block Card' })).toBeVisible();
    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test("'No results.' and a load failure's 'Try again' show on screen, not in the middle of the scrolled width", async ({
    page,
  }) => {
    await page.goto('/operations');
    await page.getByLabel('Search operations').fill(uniqueName('nothing'));
    await expect(page.getByTestId('scroll-hint')).toBeVisible();
    await expect(page.getByText('No results.', { exact: true })).toBeInViewport({ ratio: 1 });

    // A server failure, as the screens' own failure tests simulate it.
    await page.route('**/api/v1/operations?**', (route) => route.fulfill({ status: 500, json: {} }));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('button', { name: 'Try again' })).toBeInViewport({ ratio: 1 });
  });
});

for (const theme of ['light', 'dark']) {
  test(`axe: no violations on the changed tables, with the bulk dialog open (${theme})`, async ({
    page,
    api,
  }) => {
    test.slow(); // five full-page axe runs
    const account = await createAccount(api);
    await issueCard(api, account.id);
    await page.goto('/cards');
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    for (const route of ['/cards', '/operations', '/audit', '/users']) {
      await page.goto(route);
      await expect(page.locator('tbody tr').first()).toBeVisible();
      await expect(page.locator('[data-testid=skeleton-row]')).toHaveCount(0);
      expect((await axeViolations(page)).map((v) => `${route}: ${v}`)).toEqual([]);
    }
    await page.goto('/cards');
    await page.getByLabel('Search cards').fill(account.id);
    await expect(cardsTable(page).locator('tbody tr')).toHaveCount(1);
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByRole('button', { name: 'Block selected' }).click();
    await expect(page.getByRole('dialog', { name: 'Block 1 Card', exact: true })).toBeVisible();
    expect((await axeViolations(page)).map((v) => `/cards block dialog: ${v}`)).toEqual([]);
  });
}

test('Enter on Next onto the last page keeps focus in the pagination, on Previous', async ({ page, api }) => {
  const account = await createAccount(api);
  for (let i = 0; i < 11; i++) await issueCard(api, account.id);

  await page.goto(`/cards?search=${account.id}`);
  await expect(page.getByText(/^Page \d+ of \d+/)).toHaveText('Page 1 of 2 (11 total)');
  const next = page.getByRole('button', { name: 'Next' });
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Page \d+ of \d+/)).toHaveText('Page 2 of 2 (11 total)');
  await expect(next).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeFocused();
});

test('a header on a list with a default sort never turns sorting off: the server always sorts', async ({
  page,
}) => {
  // Operations: newest first by default; the one sortable column goes ascending, then back to the default.
  const sortSent = (path: string, sort: string | null) =>
    page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname === path && url.searchParams.get('sort') === sort;
    });
  await page.goto('/operations');
  const created = page
    .getByRole('table', { name: 'Operations' })
    .getByRole('columnheader', { name: 'Created' });
  await expect(created).toHaveAttribute('aria-sort', 'descending');

  const sent = sortSent('/api/v1/operations', 'createdAt,asc');
  await created.getByRole('button').click();
  await expect(created).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'createdAt,asc');
  await sent;

  // Back to the default (its page is still cached, so no request need go out).
  await created.getByRole('button').click();
  await expect(created).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL((url) => url.pathname === '/operations' && !url.searchParams.has('sort'));

  // POS Keys: another column goes ascending, descending, then back to the default (Created, newest first).
  await page.goto('/pos-keys');
  const keys = page.getByRole('table', { name: 'POS keys' });
  const name = keys.getByRole('columnheader', { name: 'Name' });
  const keyCreated = keys.getByRole('columnheader', { name: 'Created' });
  await expect(keyCreated).toHaveAttribute('aria-sort', 'descending');
  await name.getByRole('button').click();
  await expect(name).toHaveAttribute('aria-sort', 'ascending');
  await name.getByRole('button').click();
  await expect(name).toHaveAttribute('aria-sort', 'descending');
  await name.getByRole('button').click();
  await expect(keyCreated).toHaveAttribute('aria-sort', 'descending');
  await expect(name).not.toHaveAttribute('aria-sort');
  await expect(page).toHaveURL((url) => url.pathname === '/pos-keys' && !url.searchParams.has('sort'));
});

test('while the first page loads the pager counts nothing: no made-up "Page 1 of 1 (0 total)"', async ({
  page,
}) => {
  // The list's answer waits until the loading state has been looked at (no timer: released by the test).
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/v1/cards?**', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/cards');
  await expect(cardsTable(page).getByTestId('skeleton-row').first()).toBeVisible();
  const position = page.getByText(/^Page \d+/);
  await expect(position).toHaveText('Page 1');
  await expect(page.getByText(/\(0 total\)/)).toHaveCount(0);
  release();
  await expect(cardsTable(page).getByTestId('skeleton-row')).toHaveCount(0);
  await expect(position).toHaveText(/^Page 1 of \d+ \(\d+ total\)$/);
});
