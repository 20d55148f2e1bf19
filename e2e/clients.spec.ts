import type { Page } from '@playwright/test';
import { expect, seenWith, test, toast, uniqueName } from './support/fixtures';
import {
  addPoints,
  blockCard,
  createAccount,
  failWith,
  fitsViewport,
  holdPoints,
  holdRequests,
  issueCard,
} from './support/loyalty-api';

// Spec section 2 "Client Lookup", 4 "Card" (lookup statuses), 5 "Client lookup", 7 (paths, page size 10), 8.
test.describe.configure({ mode: 'parallel' });

const input = (page: Page) => page.getByLabel('Card number, client ID or account ID');
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const rows = (page: Page, title: string) => section(page, title).getByRole('table').getByRole('row');
const total = (page: Page, title: string) => section(page, title).getByTestId('section-total');
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

/** Searches and waits for this search's answer (an earlier search's toast may still be on screen). */
async function lookUp(page: Page, text: string) {
  await input(page).fill(text);
  const answered = page.waitForResponse((r) =>
    r.url().includes(`/clients/${encodeURIComponent(text)}/lookup`),
  );
  await page.getByRole('button', { name: 'Search' }).click();
  expect((await answered).ok()).toBe(true);
  await expect(toast(page, 'Client data loaded successfully').first()).toBeVisible();
}

/** A client with two cards (one blocked), 12 points operations and a hold. */
async function seedClient(
  api: Parameters<typeof createAccount>[0],
  request: Parameters<typeof holdPoints>[1],
) {
  const account = await createAccount(api, uniqueName('lookup'));
  const active = await issueCard(api, account.id);
  const blocked = await issueCard(api, account.id);
  await blockCard(api, blocked.id, 'Lost');
  for (let i = 1; i <= 11; i += 1) await addPoints(api, account.id, i * 10);
  await holdPoints(api, request, active.number, 12.5);
  return { account, active, blocked };
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
  await page.goto('/clients');
  await expect(page.getByRole('heading', { level: 1, name: 'Client Lookup' })).toBeVisible();
});

test('a blank search is refused in the browser', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => r.url().includes('/lookup') && calls.push(r.url()));
  await input(page).fill('   ');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Please enter a client ID, card number, or account ID')).toBeVisible();
  await expect(input(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(input(page)).toBeFocused();
  expect(calls).toEqual([]);
});

test("by client ID: three sections with totals, masked cards, 'Client data loaded successfully'", async ({
  page,
  api,
  request,
}) => {
  const { account, active, blocked } = await seedClient(api, request);
  const gate = await holdRequests(page, '**/lookup?*', 'GET');
  await input(page).fill(`  ${account.clientId}  `);
  const sent = page.waitForRequest((r) => r.url().includes('/lookup'));
  await page.getByRole('button', { name: 'Search' }).click();
  const url = new URL((await sent).url());
  expect(url.pathname).toBe(`/api/v1/clients/${account.clientId}/lookup`);
  expect(Object.fromEntries(url.searchParams)).toEqual({
    accountsPage: '0',
    accountsSize: '10',
    cardsPage: '0',
    cardsSize: '10',
    operationsPage: '0',
    operationsSize: '10',
  });
  await expect(page.getByRole('button', { name: 'Loading...' })).toBeDisabled();
  gate.release();
  await expect(toast(page, 'Client data loaded successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Search' })).toBeEnabled();

  await expect(total(page, 'Accounts')).toHaveText('1 total');
  await expect(rows(page, 'Accounts').nth(0).getByRole('columnheader')).toHaveText([
    'Client ID',
    'Balance',
    'Held',
    'Active Card',
    'Created',
  ]);
  await expect(rows(page, 'Accounts').nth(1).getByRole('cell')).toHaveText([
    account.clientId,
    '660 pts',
    '12.5 pts',
    `****${active.number.slice(-4)}`,
    DATE,
  ]);

  await expect(total(page, 'Cards')).toHaveText('2 total');
  const cards = section(page, 'Cards');
  await expect(cards).not.toContainText(active.number);
  await expect(
    rows(page, 'Cards')
      .filter({ hasText: `****${blocked.number.slice(-4)}` })
      .getByRole('cell'),
  ).toHaveText([`****${blocked.number.slice(-4)}`, 'Blocked', DATE, DATE]);
  await expect(
    rows(page, 'Cards')
      .filter({ hasText: `****${active.number.slice(-4)}` })
      .getByRole('cell'),
  ).toHaveText([`****${active.number.slice(-4)}`, 'Active', DATE, '—']);

  // 11 accruals and a hold: two pages of operations, one page of accounts and cards.
  await expect(total(page, 'Recent Operations')).toHaveText('12 total');
  await expect(rows(page, 'Recent Operations')).toHaveCount(11);
  const hold = rows(page, 'Recent Operations').filter({ hasText: 'Hold' });
  await expect(hold.getByRole('cell').nth(1)).toHaveText('-12.5');
  await expect(hold.getByRole('cell').nth(3)).toHaveText(`****${active.number.slice(-4)}`);
  const credit = rows(page, 'Recent Operations').filter({ hasText: '+110' });
  await expect(credit.getByRole('cell').nth(0)).toHaveText('Adjustment');
  await expect(credit.locator('svg').first()).toBeVisible();
  await expect(section(page, 'Accounts').getByText(/Page \d+ of \d+/)).toHaveCount(0);
  await expect(section(page, 'Cards').getByRole('button', { name: 'Next' })).toHaveCount(0);
  await expect(section(page, 'Recent Operations').getByText('Page 1 of 2')).toBeVisible();
});

test('by card number and by account ID the same client is found', async ({ page, api }) => {
  const account = await createAccount(api);
  const card = await issueCard(api, account.id);
  await lookUp(page, card.number);
  await expect(rows(page, 'Accounts').nth(1)).toContainText(account.clientId);
  await lookUp(page, account.id);
  await expect(rows(page, 'Accounts').nth(1)).toContainText(account.clientId);
  await expect(total(page, 'Cards')).toHaveText('1 total');
});

test("nothing found: 'No accounts found', 'No cards found', 'No operations found'", async ({ page }) => {
  await lookUp(page, uniqueName('nobody'));
  await expect(section(page, 'Accounts')).toContainText('No accounts found');
  await expect(section(page, 'Cards')).toContainText('No cards found');
  await expect(section(page, 'Recent Operations')).toContainText('No operations found');
  await expect(total(page, 'Accounts')).toHaveText('0 total');
});

test('each section pages on its own (zero-based, size 10); a failed page shows the spec toast', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  for (let i = 1; i <= 12; i += 1) await addPoints(api, account.id, i);
  await lookUp(page, account.clientId);
  const operations = section(page, 'Recent Operations');
  await expect(operations.getByText('Page 1 of 2')).toBeVisible();
  await expect(operations.getByRole('button', { name: 'Previous' })).toBeDisabled();

  const sent = page.waitForRequest((r) => r.url().includes('/lookup'));
  await operations.getByRole('button', { name: 'Next' }).click();
  const params = new URL((await sent).url()).searchParams;
  expect(params.get('operationsPage')).toBe('1');
  expect(params.get('accountsPage')).toBe('0');
  await expect(operations.getByText('Page 2 of 2')).toBeVisible();
  await expect(rows(page, 'Recent Operations')).toHaveCount(3);
  await expect(rows(page, 'Recent Operations').nth(1)).toContainText('+2');
  await expect(operations.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(rows(page, 'Accounts')).toHaveCount(2);

  await page.route('**/lookup?*', failWith(500, 'boom'));
  await operations.getByRole('button', { name: 'Previous' }).click();
  await expect(toast(page, 'Failed to load operations page')).toBeVisible();
  await expect(operations.getByText('Page 2 of 2')).toBeVisible();
});

test('the accounts and cards sections have their own page toasts', async ({ page }) => {
  const many = <T>(count: number, make: (i: number) => T) => Array.from({ length: count }, (_, i) => make(i));
  const account = (i: number) => ({
    id: crypto.randomUUID(),
    clientId: `client-${i}`,
    activeCardNumber: null,
    balance: 0,
    heldBalance: 0,
    pendingBalance: 0,
    availableBalance: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const card = (i: number) => ({
    id: crypto.randomUUID(),
    number: `40000000000001${String(i).padStart(2, '0')}`,
    accountId: crypto.randomUUID(),
    status: 'active',
    issuedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    blockedAt: null,
    blockedReason: null,
    replacedBy: null,
  });
  let fail = false;
  await page.route('**/lookup?*', (route) =>
    fail
      ? failWith(503, 'down')(route)
      : route.fulfill({
          json: {
            accounts: { content: many(10, account), total: 25 },
            cards: { content: many(10, card), total: 11 },
            operations: { content: [], total: 0 },
          },
        }),
  );
  await lookUp(page, 'shared-id');
  await expect(section(page, 'Accounts').getByText('Page 1 of 3')).toBeVisible();
  await expect(section(page, 'Cards').getByText('Page 1 of 2')).toBeVisible();
  // The issued date falls back to the created date.
  await expect(rows(page, 'Cards').nth(1).getByRole('cell').nth(2)).toHaveText('Jan 1, 2026');

  fail = true;
  await section(page, 'Accounts').getByRole('button', { name: 'Next' }).click();
  await expect(toast(page, 'Failed to load accounts page')).toBeVisible();
  await section(page, 'Cards').getByRole('button', { name: 'Next' }).click();
  await expect(toast(page, 'Failed to load cards page')).toBeVisible();
});

test('lookup statuses: completed or active → Active, blocked or failed → Blocked; debits in red', async ({
  page,
}) => {
  const card = (number: string, status: string) => ({
    id: crypto.randomUUID(),
    number,
    accountId: crypto.randomUUID(),
    status,
    issuedAt: '2026-02-01T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    blockedAt: null,
    blockedReason: null,
    replacedBy: null,
  });
  const operation = (points: string, type: string) => ({
    id: crypto.randomUUID(),
    operationId: null,
    type,
    points,
    status: 'completed',
    accountId: null,
    cardNumber: '4000000000009999',
    posId: null,
    posName: null,
    posAddress: null,
    createdAt: '2026-02-01T12:00:00.000Z',
    meta: {},
  });
  await page.route('**/lookup?*', (route) =>
    route.fulfill({
      json: {
        accounts: { content: [], total: 0 },
        cards: {
          content: [
            card('4000000000001111', 'completed'),
            card('4000000000002222', 'active'),
            card('4000000000003333', 'blocked'),
            card('4000000000004444', 'failed'),
          ],
          total: 4,
        },
        operations: {
          content: [operation('-25.50', 'redemption'), operation('1234.56', 'accrual')],
          total: 2,
        },
      },
    }),
  );
  await lookUp(page, '4000000000009999');
  const statuses = rows(page, 'Cards').locator('td:nth-child(2)');
  await expect(statuses).toHaveText(['Active', 'Active', 'Blocked', 'Blocked']);
  await expect(rows(page, 'Cards').nth(1).getByRole('cell').nth(2)).toHaveText('Feb 1, 2026');

  const debit = rows(page, 'Recent Operations').nth(1).getByRole('cell');
  await expect(debit).toHaveText(['Redemption', '-25.5', 'completed', '****9999', /^Feb 1, 2026, 12:00 PM$/]);
  await expect(debit.nth(1).locator('span')).toHaveClass(/text-red/);
  const credit = rows(page, 'Recent Operations').nth(2).getByRole('cell');
  await expect(credit.nth(1)).toHaveText('+1,234.56');
  await expect(credit.nth(1).locator('span')).toHaveClass(/text-emerald/);
});

test("a failed lookup shows 'Failed to load client data' with the server's message, and not the client before", async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await lookUp(page, account.clientId);
  await expect(rows(page, 'Accounts').nth(1)).toContainText(account.clientId);
  await page.route('**/lookup?*', failWith(422, 'The lookup service is busy'));
  await input(page).fill('anything');
  await page.getByRole('button', { name: 'Search' }).click();
  const failed = toast(page, 'Failed to load client data');
  await expect(seenWith(failed, 'The lookup service is busy')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Search' })).toBeEnabled();
  // The earlier client's sections would read as the answer to 'anything'.
  await expect(section(page, 'Accounts')).toHaveCount(0);
  await expect(
    page.getByText('Search for a client to see their accounts, cards and recent operations.'),
  ).toBeVisible();
});

test('a VIEWER can look clients up', async ({ page, api, signIn, createUser }) => {
  const account = await createAccount(api);
  await signIn(page, await createUser('VIEWER'));
  await page.goto('/clients');
  await lookUp(page, account.clientId);
  await expect(rows(page, 'Accounts').nth(1)).toContainText(account.clientId);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the search and the sections fit the screen', async ({ page, api }) => {
    const account = await createAccount(api);
    await issueCard(api, account.id);
    await lookUp(page, account.clientId);
    await expect(page.getByRole('button', { name: 'Search' })).toBeInViewport();
    expect(await fitsViewport(page)).toBe(true);
  });
});
