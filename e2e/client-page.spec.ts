import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { axeScan } from './support/axe';
import { expect, test, toast } from './support/fixtures';
import {
  addPoints,
  blockCard,
  createAccount,
  fitsViewport,
  getAccount,
  issueCard,
} from './support/loyalty-api';
import { accrualWithReceipt } from './support/pos-api-helpers';

// Issue 16: one client page (/clients/:id) that every table and the lookup link to; /cards finds a client
// ID; /operations finds an operation-id prefix.
test.describe.configure({ mode: 'parallel' });

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const bodyRows = (page: Page, name: string) => section(page, name).getByRole('table').locator('tbody tr');

/** A client with a POS receipt, a manual credit, and two cards (the older one blocked). */
async function seedClient(api: APIRequestContext, request: APIRequestContext) {
  const {
    card: first,
    receiptId,
    accrual,
  } = await accrualWithReceipt(api, request, [{ sku: 'BREAD', quantity: 2, price: 3.5 }]);
  const account = await getAccount(api, first.accountId);
  await addPoints(api, account.id, 40, 'Welcome gift');
  await blockCard(api, first.id, 'Lost');
  const second = await issueCard(api, account.id);
  return { account: await getAccount(api, account.id), first, second, receiptId, accrual };
}

async function expectClientPage(page: Page, account: { id: string; clientId: string }) {
  await expect(page).toHaveURL(`/clients/${account.id}`);
  await expect(page.getByRole('heading', { level: 1, name: account.clientId })).toBeVisible();
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('from /cards: search by client ID, follow its link; the page shows account, cards, operations, receipts', async ({
  page,
  api,
  request,
}) => {
  const { account, first, second, receiptId, accrual } = await seedClient(api, request);
  await page.goto('/cards');
  await page.getByLabel('Search cards').fill(account.clientId.toUpperCase());
  const cards = page.getByRole('table', { name: 'Cards' });
  await expect(cards.locator('tbody tr')).toHaveCount(2);
  await expect(cards.getByRole('columnheader', { name: 'Client ID' })).toBeVisible();
  await cards.locator('tbody tr').first().getByRole('link', { name: account.clientId }).click();
  await expectClientPage(page, account);

  const figures = page.getByRole('region', { name: 'Account' });
  const balance = account.balance;
  await expect(figures.getByRole('definition').first()).toHaveText(`${balance} pts`);
  await expect(figures).toContainText('Available');
  await expect(figures).toContainText('Active');

  await expect(section(page, 'Cards').getByTestId('section-total')).toHaveText('2 total');
  await expect(bodyRows(page, 'Cards').first()).toContainText(second.number);
  await expect(bodyRows(page, 'Cards').nth(1)).toContainText(first.number);
  await expect(bodyRows(page, 'Cards').nth(1)).toContainText('Lost');

  // Newest first: the manual credit, then the POS accrual.
  await expect(section(page, 'Operations').getByTestId('section-total')).toHaveText('2 total');
  await expect(bodyRows(page, 'Operations').first()).toContainText('Welcome gift');
  await expect(bodyRows(page, 'Operations').nth(1)).toContainText(`Receipt ${receiptId}`);

  await expect(section(page, 'Receipts').getByTestId('section-total')).toHaveText('1 total');
  await expect(bodyRows(page, 'Receipts')).toHaveCount(1);
  await section(page, 'Receipts').getByRole('button', { name: 'View Receipt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
  await expect(dialog).toContainText(receiptId);
  await expect(dialog).toContainText('BREAD');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(accrual.points).toBeGreaterThan(0);
});

test('a refused accrual is an operation, not a receipt: no receipt listed, no View Receipt on its row', async ({
  page,
  api,
  request,
}) => {
  const { card, posKey, receiptId } = await accrualWithReceipt(api, request, [
    { sku: 'BREAD', quantity: 1, price: 2 },
  ]);
  await blockCard(api, card.id, 'Lost');
  const refusedId = `refused-${receiptId}`;
  const refused = await request.post('/pos/api/v1/accruals', {
    headers: { 'X-API-Key': posKey.apiKey },
    data: {
      operationId: refusedId,
      cardNumber: card.number,
      receipt: { receiptId: `${receiptId}-2`, items: [{ sku: 'BREAD', quantity: 1, price: 2 }] },
    },
  });
  expect(refused.status()).toBe(409);
  await page.goto(`/clients/${card.accountId}`);
  await expect(section(page, 'Operations').getByTestId('section-total')).toHaveText('2 total');
  await expect(section(page, 'Receipts').getByTestId('section-total')).toHaveText('1 total');
  await expect(bodyRows(page, 'Receipts')).toHaveCount(1);

  await page.goto('/operations');
  await page.getByLabel('Search operations').fill(refusedId);
  const row = page
    .getByRole('table', { name: 'Operations' })
    .locator('tbody tr')
    .filter({ hasText: refusedId });
  await expect(row).toContainText(/failed/i);
  await expect(row.getByRole('button', { name: 'View Receipt' })).toHaveCount(0);
});

test('the widest points an operation can hold show whole in Operations and Receipts at 1280 px', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  // numeric(14, 2), the balance limit, either sign; no single API call books that much, so the operations
  // list is stubbed (both sections read it).
  const op = (n: number, type: string, points: string) => ({
    id: `00000000-0000-4000-8000-00000000002${n}`,
    operationId: null,
    type,
    points,
    status: 'completed',
    accountId: account.id,
    cardNumber: null,
    posId: null,
    posName: null,
    posAddress: null,
    createdAt: '2030-01-02T03:04:05.000Z',
    meta: {},
  });
  const content = [
    op(1, 'accrual', '123456789.12'),
    op(2, 'adjustment', '999999999999.99'),
    op(3, 'expiry', '-999999999999.99'),
  ];
  await page.route('**/api/v1/operations?**', (route) =>
    route.fulfill({ json: { content, totalElements: 3, totalPages: 1, page: 0, size: 10 } }),
  );
  await page.goto(`/clients/${account.id}`);
  const cut = (cells: Locator) =>
    cells.evaluateAll((tds) => tds.map((td) => `${td.textContent} ${td.scrollWidth > td.clientWidth}`));
  const whole = ['+123,456,789.12 false', '+999,999,999,999.99 false', '-999,999,999,999.99 false'];
  await expect(bodyRows(page, 'Operations')).toHaveCount(3);
  expect(await cut(bodyRows(page, 'Operations').locator('td:nth-child(3)'))).toEqual(whole);
  await expect(bodyRows(page, 'Receipts')).toHaveCount(3);
  expect(await cut(bodyRows(page, 'Receipts').locator('td:nth-child(5)'))).toEqual(whole);
  // Receipts keep to the page too.
  await expect(section(page, 'Receipts').getByTestId('scroll-hint')).toHaveCount(0);
});

test('Operations fits 1280 px: no sideways scroll, and its widest date, type, status and card show whole', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  // The widest of each fixed column: a two-digit day and hour, the longest type label and status, a card.
  const content = ['redemption', 'adjustment', 'accrual'].map((type, n) => ({
    id: `00000000-0000-4000-8000-00000000003${n}`,
    operationId: `op-${n}`,
    type,
    points: '-999999999999.99',
    status: 'completed',
    accountId: account.id,
    cardNumber: '9018610177899066',
    posId: null,
    posName: 'Main Street till 12',
    posAddress: null,
    createdAt: '2030-12-28T12:59:00.000Z',
    meta: { reason: 'Welcome gift' },
  }));
  await page.route('**/api/v1/operations?**', (route) =>
    route.fulfill({ json: { content, totalElements: 3, totalPages: 1, page: 0, size: 10 } }),
  );
  await page.goto(`/clients/${account.id}`);
  await expect(bodyRows(page, 'Operations')).toHaveCount(3);
  await expect(bodyRows(page, 'Operations').first()).toContainText('Dec 28, 2030, 12:59 PM');
  await expect(section(page, 'Operations').getByTestId('scroll-hint')).toHaveCount(0);
  // Date, Type, Points, Status and Card never cut (POS cuts a long name with its tooltip; Details wraps).
  const cut = await bodyRows(page, 'Operations')
    .locator('td:nth-child(-n+5)')
    .evaluateAll((tds) => tds.filter((td) => td.scrollWidth > td.clientWidth).map((td) => td.textContent));
  expect(cut).toEqual([]);
});

test('Available is what a till may spend: balance − held − pending, as the server answers it', async ({
  page,
  api,
}) => {
  // A pending period is a global setting that would hold back every other test's points: the account's
  // answer gets a pending amount instead (as the server would then send it), and the figure is what is checked.
  const account = await createAccount(api);
  await addPoints(api, account.id, 40, 'Welcome gift');
  await page.route(`**/api/v1/accounts/${account.id}`, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, pendingBalance: 12.5, availableBalance: 27.5 } });
  });
  await page.goto(`/clients/${account.id}`);
  const figures = page.getByRole('region', { name: 'Account' }).getByRole('definition');
  await expect(figures.first()).toHaveText('40 pts');
  // Balance, its hint-less figure; Held and its hint; then Available and its hint.
  await expect(figures.nth(3)).toHaveText('27.5 pts');
  // The pending amount is named: staff see what is held back, not only that something is.
  await expect(figures.nth(4)).toHaveText('balance − held − 12.5 pts pending');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('card actions as on /cards: block the active card from the client page', async ({
  page,
  api,
  request,
}) => {
  const { account, second } = await seedClient(api, request);
  await page.goto(`/clients/${account.id}`);
  await expectClientPage(page, account);
  await page.getByRole('button', { name: `Actions for card ${second.number}` }).click();
  await page.getByRole('menuitem', { name: 'Block Card', exact: true }).click();
  await page.getByLabel('Block Reason').fill('Damaged');
  await page.getByRole('dialog').getByRole('button', { name: 'Block Card' }).click();
  await expect(toast(page, 'Card blocked successfully')).toBeVisible();
  await expect(bodyRows(page, 'Cards').first()).toContainText('Damaged');
  // The account has no active card left, and the figures say so.
  await expect(page.getByRole('region', { name: 'Account' })).toContainText('No active card');
});

test('from the lookup, the accounts section links to the client page; Back shows the lookup again', async ({
  page,
  api,
  request,
}) => {
  const { account } = await seedClient(api, request);
  await page.goto('/clients');
  const input = page.getByLabel('Card number, client ID or account ID');
  await input.fill(account.clientId);
  await page.getByRole('button', { name: 'Search' }).click();
  const accounts = page.getByRole('region', { name: 'Accounts', exact: true });
  await accounts.getByRole('link', { name: account.clientId }).click();
  await expectClientPage(page, account);
  await expect(section(page, 'Operations').getByTestId('section-total')).toHaveText('2 total');
  // The searched text is in the address: Back (or a reload) shows the same client, not an empty search.
  await page.goBack();
  await expect(input).toHaveValue(account.clientId);
  await expect(accounts.getByRole('link', { name: account.clientId })).toBeVisible();
  await page.reload();
  await expect(accounts.getByRole('link', { name: account.clientId })).toBeVisible();
  // Back once more is the lookup before any search: empty again.
  await page.goBack();
  await expect(input).toHaveValue('');
  await expect(
    page.getByText('Search for a client to see their accounts, cards and recent operations.'),
  ).toBeVisible();
});

test('a card number, a client ID or a card id in the address lands on the account; unknown is said so', async ({
  page,
  api,
  request,
}) => {
  const { account, first } = await seedClient(api, request);
  for (const ref of [first.number, account.clientId.toLowerCase(), first.id]) {
    await page.goto(`/clients/${encodeURIComponent(ref)}`);
    await expectClientPage(page, account);
  }
  await page.goto('/clients/nobody-by-this-name');
  await expect(page.getByRole('heading', { level: 1, name: 'Client not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Open Client Lookup' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Client Lookup' })).toBeVisible();
});

test('/operations finds an operation-id prefix, and its card number links to the client', async ({
  page,
  api,
  request,
}) => {
  const { account, first, accrual } = await seedClient(api, request);
  await page.goto('/operations');
  // uniqueName('op') is "op-" + 8 hex digits: 7 characters of it are a prefix no other test shares.
  await page.getByLabel('Search operations').fill(accrual.operationId.slice(0, 10));
  const rows = page.getByRole('table', { name: 'Operations' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(accrual.operationId);
  await rows.first().getByRole('link', { name: first.number }).click();
  await expectClientPage(page, account);
});

test('the client page: no axe violations in either theme, and it fits 390 px', async ({
  page,
  api,
  request,
}) => {
  const { account } = await seedClient(api, request);
  for (const theme of ['light', 'dark']) {
    await page.goto(`/clients/${account.id}`);
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await page.reload();
    await expect(bodyRows(page, 'Receipts')).toHaveCount(1);
    const results = await axeScan(page);
    expect(
      results.violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target).join(', ')}`),
    ).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/clients/${account.id}`);
  await expect(bodyRows(page, 'Cards')).toHaveCount(2);
  expect(await fitsViewport(page)).toBe(true);
  // Keyboard: the first card's actions are reachable by Tab from the page.
  await page.getByRole('heading', { level: 1, name: account.clientId }).click();
  const actions = page.getByRole('button', { name: /^Actions for card / }).first();
  for (let i = 0; i < 40 && !(await actions.evaluate((el) => el === document.activeElement)); i += 1) {
    await page.keyboard.press('Tab');
  }
  await expect(actions).toBeFocused();
});

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a seven-figure balance and its operation show whole, not cut to an ellipsis', async ({
      page,
      api,
    }) => {
      const account = await createAccount(api);
      await issueCard(api, account.id);
      await addPoints(api, account.id, 1234567.89);
      await page.goto(`/clients/${account.id}`);
      await expectClientPage(page, account);
      // Nothing clipped: the element's content fits its box (truncation hides digits behind an ellipsis).
      const whole = (locator: ReturnType<Page['locator']>) =>
        locator.evaluate((element) => element.scrollWidth <= element.clientWidth);
      const balance = page.getByRole('region', { name: 'Account' }).getByRole('definition').first();
      await expect(balance).toHaveText('1,234,567.89 pts');
      expect(await whole(balance)).toBe(true);
      const points = bodyRows(page, 'Operations').first().getByRole('cell').nth(2);
      await expect(points).toHaveText('+1,234,567.89');
      expect(await whole(points)).toBe(true);
    });
  });
}

for (const width of [1280, 390]) {
  test(`a nine-figure balance stays one number at ${width} px: its digits are never broken across lines`, async ({
    page,
    api,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const account = await createAccount(api);
    await issueCard(api, account.id);
    await addPoints(api, account.id, 123456789.12);
    await page.goto(`/clients/${account.id}`);
    await expectClientPage(page, account);
    const figures = page.getByRole('region', { name: 'Account' }).getByRole('definition');
    const balance = figures.first();
    await expect(balance).toHaveText('123,456,789.12 pts');
    // The line boxes the number itself takes ('pts' may go to the next line): at 1280 px it showed
    // '123,456,789.1' / '2 pts', on a phone '123,456,7' / '89.12 pts'.
    const numberLines = await balance.evaluate((dd) => {
      // The first text inside the figure (the number may sit in an element of its own).
      const text = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT).nextNode()!;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, '123,456,789.12'.length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(numberLines).toBe(1);
    // And nothing of the page scrolls sideways for it.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
