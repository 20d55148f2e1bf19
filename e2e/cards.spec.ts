import type { Page } from '@playwright/test';
import { chooseOption, expect, seenWith, test, toast } from './support/fixtures';
import {
  blockCard,
  cardsOf,
  createAccount,
  createCardholder,
  failWith,
  fitsViewport,
  holdRequests,
  issueCard,
} from './support/loyalty-api';

// Spec section 2 "Loyalty Cards", 3 "Card", 4 "Card", 5 "Block card", 8 screen toasts.
test.describe.configure({ mode: 'parallel' });

const table = (page: Page) => page.getByRole('table', { name: 'Cards' });
const rowFor = (page: Page, number: string) =>
  table(page)
    .getByRole('row')
    // The number's cell also holds its copy button: match the number's own text.
    .filter({ has: page.getByText(number, { exact: true }) });
const search = (page: Page, text: string) => page.getByLabel('Search cards').fill(text);
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

async function openCards(page: Page, text: string) {
  await page.goto('/cards');
  await search(page, text);
}

/**
 * Whether the search box's placeholder shows whole: its words typed as the value must not scroll the input
 * (the placeholder is drawn in the same box and font, but an input never reports the placeholder's overflow).
 */
async function placeholderFits(page: Page) {
  const input = page.getByLabel('Search cards');
  const placeholder = await input.getAttribute('placeholder');
  await input.fill(placeholder ?? '');
  const fits = await input.evaluate((el) => el.scrollWidth <= el.clientWidth);
  await input.fill('');
  return { placeholder, fits };
}

async function rowAction(page: Page, number: string, item: string) {
  await page.getByRole('button', { name: `Actions for card ${number}` }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** A list answer the server would never give (odd statuses, missing dates), for the display rules. */
function fakeCard(overrides: Record<string, unknown>) {
  return {
    id: crypto.randomUUID(),
    number: '4000000000000002',
    accountId: crypto.randomUUID(),
    status: 'active',
    issuedAt: '2026-01-15T10:00:00.000Z',
    createdAt: '2026-01-15T10:00:00.000Z',
    blockedAt: null,
    blockedReason: null,
    replacedBy: null,
    ...overrides,
  };
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('lists cards: number, client ID (issue 16: not the account UUID), status badge, issued date, blocked date and truncated reason', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  const active = await issueCard(api, account.id);
  const blocked = await issueCard(api, account.id);
  const reason = 'Reported stolen by the client at the Main Street store on a busy Saturday afternoon';
  await blockCard(api, blocked.id, reason);

  await openCards(page, account.id); // search by accountId
  await expect(page.getByRole('heading', { level: 1, name: 'Loyalty Cards' })).toBeVisible();
  await expect(table(page).getByRole('columnheader')).toHaveText([
    '',
    'Card Number',
    'Client ID',
    'Status',
    'Issued',
    'Blocked',
    'Actions',
  ]);
  await expect(table(page).getByRole('row')).toHaveCount(3);

  const activeCells = rowFor(page, active.number).getByRole('cell');
  await expect(activeCells.nth(2)).toHaveText(account.clientId);
  await expect(activeCells.nth(2).getByRole('link')).toHaveAttribute('href', `/clients/${account.id}`);
  await expect(activeCells.nth(3)).toHaveText('Active');
  await expect(activeCells.nth(4)).toHaveText(DATE);
  await expect(activeCells.nth(5)).toHaveText('—');

  const blockedCells = rowFor(page, blocked.number).getByRole('cell');
  await expect(blockedCells.nth(3)).toHaveText('Blocked');
  await expect(blockedCells.nth(5)).toContainText(reason);
  const reasonText = blockedCells.nth(5).getByText(reason);
  await expect(reasonText).toHaveAttribute('title', reason);
  await expect(reasonText).toHaveCSS('text-overflow', 'ellipsis');
});

test("unknown statuses show 'Unknown', a missing issued date 'N/A', and a pending card has no actions", async ({
  page,
}) => {
  const cards = [
    fakeCard({ number: '4000000000000101', status: 'lost' }),
    fakeCard({ number: '4000000000000102', status: 'pending', issuedAt: null }),
  ];
  await page.route('**/api/v1/cards?*', (route) =>
    route.fulfill({ json: { content: cards, totalElements: 2, totalPages: 1, page: 0, size: 10 } }),
  );
  await page.goto('/cards');
  const unknown = rowFor(page, '4000000000000101').getByRole('cell');
  await expect(unknown.nth(3)).toHaveText('Unknown');
  const pending = rowFor(page, '4000000000000102').getByRole('cell');
  await expect(pending.nth(3)).toHaveText('Pending');
  await expect(pending.nth(4)).toHaveText('N/A');
  await expect(page.getByRole('button', { name: 'Actions for card 4000000000000102' })).toHaveCount(0);
});

test('search by number, status filter active / blocked / pending, and Refresh', async ({ page, api }) => {
  const account = await createAccount(api);
  const active = await issueCard(api, account.id);
  const blocked = await issueCard(api, account.id);
  await blockCard(api, blocked.id);

  await openCards(page, active.number);
  await expect(table(page).getByRole('row')).toHaveCount(2);
  await expect(rowFor(page, active.number)).toBeVisible();

  await search(page, account.id);
  await expect(table(page).getByRole('row')).toHaveCount(3);
  const filter = page.getByRole('combobox', { name: 'Filter by status' });
  await filter.click();
  await expect(page.getByRole('option')).toHaveText(['All statuses', 'Active', 'Blocked', 'Pending']);
  await page.getByRole('option', { name: 'Blocked', exact: true }).click();
  await expect(table(page).getByRole('row')).toHaveCount(2);
  await expect(rowFor(page, blocked.number)).toBeVisible();
  await chooseOption(page, filter, 'Pending');
  await expect(table(page).getByText('No results.')).toBeVisible();

  await chooseOption(page, filter, 'Active');
  await expect(table(page).getByRole('row')).toHaveCount(2);
  await issueCard(api, account.id);
  const listed = page.waitForResponse((r) => r.url().includes('/api/v1/cards?'));
  await page.getByRole('button', { name: 'Refresh' }).click();
  await listed;
  await expect(table(page).getByRole('row')).toHaveCount(3);
});

test("Block Card: only when active; the card number, a required Block Reason, 'Card blocked successfully'", async ({
  page,
  api,
}) => {
  const { card } = await createCardholder(api);
  await openCards(page, card.number);
  await page.getByRole('button', { name: `Actions for card ${card.number}` }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Block Card']);
  await page.getByRole('menuitem', { name: 'Block Card' }).click();

  const dialog = page.getByRole('dialog', { name: 'Block Card' });
  await expect(dialog).toContainText(card.number);
  const reason = dialog.getByLabel('Block Reason');
  await expect(reason).toBeFocused();

  await reason.fill('   ');
  await dialog.getByRole('button', { name: 'Block Card' }).click();
  await expect(toast(page, 'Block reason is required')).toBeVisible();
  await expect(reason).toHaveAttribute('aria-invalid', 'true');

  await reason.fill('  Lost at the station  ');
  const gate = await holdRequests(page, `**/api/v1/cards/${card.id}/block`);
  const sent = page.waitForRequest((r) => r.url().endsWith(`/api/v1/cards/${card.id}/block`));
  await dialog.getByRole('button', { name: 'Block Card' }).click();
  expect((await sent).postDataJSON()).toEqual({ reason: 'Lost at the station' });
  await expect(dialog.getByRole('button', { name: 'Blocking...' })).toBeDisabled();
  gate.release();
  await expect(toast(page, 'Card blocked successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: `Actions for card ${card.number}` })).toBeFocused();
  const cells = rowFor(page, card.number).getByRole('cell');
  await expect(cells.nth(3)).toHaveText('Blocked');
  await expect(cells.nth(5)).toContainText('Lost at the station');
});

test("Block Card: Escape closes without a call; a card blocked meanwhile shows 'Failed to block card' and its new state", async ({
  page,
  api,
}) => {
  const { card } = await createCardholder(api);
  const calls: string[] = [];
  page.on('request', (r) => r.url().includes('/block') && calls.push(r.url()));
  await openCards(page, card.number);
  await rowAction(page, card.number, 'Block Card');
  const dialog = page.getByRole('dialog', { name: 'Block Card' });
  await dialog.getByLabel('Block Reason').fill('Changed my mind');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(calls).toEqual([]);

  await rowAction(page, card.number, 'Block Card');
  await expect(dialog.getByLabel('Block Reason')).toHaveValue('');
  await dialog.getByLabel('Block Reason').fill('Fraud');
  // Someone else blocks it while this dialog is open.
  await blockCard(api, card.id, 'Blocked elsewhere');
  await dialog.getByRole('button', { name: 'Block Card' }).click();
  const failed = toast(page, 'Failed to block card');
  await expect(seenWith(failed, 'Card is already blocked')).toBeVisible();
  // The action can no longer succeed: the dialog closes and the row shows the card as it now is.
  await expect(dialog).toBeHidden();
  await expect(rowFor(page, card.number)).toContainText('Blocked');
  await rowAction(page, card.number, 'Reissue Card');
  await expect(page.getByRole('alertdialog', { name: 'Reissue Card' })).toBeVisible();
});

test('Block Card: a failure that is not a conflict keeps the dialog and what was typed', async ({
  page,
  api,
}) => {
  const { card } = await createCardholder(api);
  await page.route(`**/api/v1/cards/${card.id}/block`, failWith(503, 'down'));
  await openCards(page, card.number);
  await rowAction(page, card.number, 'Block Card');
  const dialog = page.getByRole('dialog', { name: 'Block Card' });
  await dialog.getByLabel('Block Reason').fill('Fraud');
  await dialog.getByRole('button', { name: 'Block Card' }).click();
  await expect(toast(page, 'Failed to block card')).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Block Reason')).toHaveValue('Fraud');
});

test("Reissue Card: only when blocked; the spec's question; 'Card reissued successfully'", async ({
  page,
  api,
}) => {
  const { account, card } = await createCardholder(api);
  await blockCard(api, card.id, 'Damaged');
  await openCards(page, account.id);
  await page.getByRole('button', { name: `Actions for card ${card.number}` }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Reissue Card']);
  await page.getByRole('menuitem', { name: 'Reissue Card' }).click();

  const confirm = page.getByRole('alertdialog', { name: 'Reissue Card' });
  await expect(confirm).toContainText(
    'Are you sure you want to reissue this card? This will create a new card number.',
  );
  await expect(confirm).toContainText(card.number);
  await confirm.getByRole('button', { name: 'Reissue Card' }).click();
  const done = toast(page, 'Card reissued successfully');
  await expect(done).toBeVisible();
  await expect(confirm).toBeHidden();

  const cards = await cardsOf(api, account.id);
  const fresh = cards.find((c) => c.id !== card.id);
  expect(fresh?.status).toBe('active');
  await expect(rowFor(page, fresh?.number ?? '')).toContainText('Active');
  // Issue 16: the toast names the new card, and the replaced card offers no second Reissue.
  await expect(done).toContainText(`The new card is ${fresh?.number}`);
  await expect(rowFor(page, card.number)).toContainText('Blocked');
  await expect(page.getByRole('button', { name: `Actions for card ${card.number}` })).toHaveCount(0);
});

test('Reissue Card raced by another user: exactly one new card; the loser is told the card was already reissued', async ({
  page,
  api,
}) => {
  const { account, card } = await createCardholder(api);
  await blockCard(api, card.id, 'Lost');
  await openCards(page, account.id);
  await rowAction(page, card.number, 'Reissue Card');
  const confirm = page.getByRole('alertdialog', { name: 'Reissue Card' });
  await expect(confirm).toBeVisible();
  // Someone else reissues the same card while this dialog is open.
  expect((await api.post(`/api/v1/cards/${card.id}/reissue`)).status()).toBe(201);
  await confirm.getByRole('button', { name: 'Reissue Card' }).click();
  const failed = toast(page, 'Failed to reissue card');
  await expect(seenWith(failed, `Card ${card.number} was already reissued`)).toBeVisible();
  const cards = await cardsOf(api, account.id);
  expect(cards.filter((c) => c.status === 'active')).toHaveLength(1);
  // The list reloads: the other user's new card is in it.
  const fresh = cards.find((c) => c.status === 'active')!;
  await expect(rowFor(page, fresh.number)).toContainText('Active');
});

test("Reissue Card: a failure shows 'Failed to reissue card'; a load failure 'Failed to load cards'", async ({
  page,
  api,
}) => {
  const { card } = await createCardholder(api);
  await blockCard(api, card.id);
  await page.route(`**/api/v1/cards/${card.id}/reissue`, failWith(500, 'boom'));
  await openCards(page, card.number);
  await rowAction(page, card.number, 'Reissue Card');
  await page
    .getByRole('alertdialog', { name: 'Reissue Card' })
    .getByRole('button', { name: 'Reissue Card' })
    .click();
  await expect(toast(page, 'Failed to reissue card')).toBeVisible();

  await page.route('**/api/v1/cards?*', failWith(500, 'boom'));
  await search(page, `${card.number.slice(0, 6)}`);
  await expect(toast(page, 'Failed to load cards')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Cards' }).getByRole('alert')).toContainText(
    'Failed to load cards page',
  );
});

test("a proxy's error page in front of the server is told in the spec's words, not its status line", async ({
  page,
  api,
}) => {
  const { card } = await createCardholder(api);
  await openCards(page, card.number);
  // What a load balancer answers while the server is away: HTML, not the API's JSON error.
  await page.route('**/api/v1/cards?*', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'text/html',
      body: '<html><h1>503 Service Unavailable</h1></html>',
    }),
  );
  await search(page, `${card.number.slice(0, 7)}`);
  const failed = toast(page, 'Failed to load cards');
  await expect(failed.locator('[data-description]')).toHaveText(
    'Service temporarily unavailable. Please try again later.',
  );
});

test('a VIEWER sees no card actions', async ({ page, api, signIn, createUser }) => {
  const { account, card } = await createCardholder(api);
  const blocked = await issueCard(api, account.id);
  await blockCard(api, blocked.id);
  await signIn(page, await createUser('VIEWER'));
  await openCards(page, account.id);
  await expect(table(page).getByRole('row')).toHaveCount(3);
  await expect(rowFor(page, card.number)).toBeVisible();
  await expect(table(page).getByRole('button', { name: /^Actions for card/ })).toHaveCount(0);
  await expect(table(page).getByRole('columnheader')).toHaveCount(6);
});

test('the search placeholder shows whole at 1280 px (it was cut to "Card number, client ID or acc")', async ({
  page,
}) => {
  await page.goto('/cards');
  expect(await placeholderFits(page)).toEqual({
    placeholder: 'Card number, client ID or account ID',
    fits: true,
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the search placeholder shows whole and the toolbar fits the screen', async ({ page }) => {
    await page.goto('/cards');
    expect((await placeholderFits(page)).fits).toBe(true);
    expect(await fitsViewport(page)).toBe(true);
  });

  test('the list and the block dialog fit the screen', async ({ page, api }) => {
    const { card } = await createCardholder(api);
    await openCards(page, card.number);
    await expect(rowFor(page, card.number)).toBeVisible();
    expect(await fitsViewport(page)).toBe(true);
    await rowAction(page, card.number, 'Block Card');
    const dialog = page.getByRole('dialog', { name: 'Block Card' });
    await expect(dialog.getByRole('button', { name: 'Block Card' })).toBeInViewport();
    expect(await fitsViewport(page)).toBe(true);
  });
});
