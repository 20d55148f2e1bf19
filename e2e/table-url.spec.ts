import type { Page } from '@playwright/test';
import { chooseOption, expect, test, USERS_PATH, uniqueName } from './support/fixtures';
import { blockCard, createAccount, issueCard } from './support/loyalty-api';
import { createPosKey, ensureRulesetInForce, posAccrual } from './support/pos-api-helpers';

// A screen's list keeps its page, sort, search and filters in the address: Back from a drill-down, a reload
// or a shared link shows the list as it was left; values the address cannot hold open the plain list.
test.describe.configure({ mode: 'parallel' });

const cardsTable = (page: Page) => page.getByRole('table', { name: 'Cards' });
const bodyRows = (page: Page) => cardsTable(page).locator('tbody tr');
const pageText = (page: Page) => page.getByText(/^Page \d+ of \d+/);

/** An account with `count` active cards; their numbers in ascending order. */
async function accountWithCards(api: Parameters<typeof createAccount>[0], count: number) {
  const account = await createAccount(api);
  const cards = [];
  for (let i = 0; i < count; i++) cards.push(await issueCard(api, account.id));
  return { account, cards, numbers: cards.map((card) => card.number).sort() };
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('/cards: Back from the client page keeps the search and its rows', async ({ page, api }) => {
  const { account, cards } = await accountWithCards(api, 2);
  const [card] = cards;
  if (!card) throw new Error('no card issued');

  await page.goto('/cards');
  await page.getByLabel('Search cards').fill(card.number);
  await expect(bodyRows(page)).toHaveCount(1);
  await bodyRows(page).getByRole('link', { name: account.clientId }).click();
  await expect(page).toHaveURL(new RegExp(`/clients/${account.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: account.clientId })).toBeVisible();

  await page.goBack();
  await expect(page.getByLabel('Search cards')).toHaveValue(card.number);
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page)).toContainText(card.number);
  await expect(page).toHaveURL(new RegExp(`/cards\\?search=${card.number}$`));
});

test('/operations: Back from the client page keeps the search, the filter and their row', async ({
  page,
  api,
  request,
}) => {
  await ensureRulesetInForce(api);
  const account = await createAccount(api);
  const card = await issueCard(api, account.id);
  const till = await createPosKey(api);
  const operationId = uniqueName('op-url');
  await posAccrual(request, till.apiKey, {
    operationId,
    cardNumber: card.number,
    receipt: { receiptId: uniqueName('R'), items: [{ sku: 'MILK-1L', quantity: 2, price: 1.49 }] },
  });
  const rows = page.getByRole('table', { name: 'Operations' }).locator('tbody tr');

  await page.goto('/operations');
  await page.getByLabel('Search operations').fill(card.number);
  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by type' }), 'accrual');
  // Both in the address before leaving (the one operation may be the whole list on a fresh database).
  await expect(page).toHaveURL(
    (url) => url.searchParams.get('search') === card.number && url.searchParams.get('type') === 'accrual',
  );
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(operationId);
  await rows.getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: account.clientId })).toBeVisible();

  await page.goBack();
  await expect(page.getByLabel('Search operations')).toHaveValue(card.number);
  await expect(page.getByRole('combobox', { name: 'Filter by type' })).toHaveText('accrual');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(operationId);
  await expect(page).toHaveURL(/[?&]type=accrual(&|$)/);
});

test('/cards: each page is a step of history; Back and Forward move between pages', async ({ page, api }) => {
  const { account } = await accountWithCards(api, 11);
  // A card outside the search: the whole list never reads "11 total", so the text below is the search's.
  await issueCard(api, (await createAccount(api)).id);
  const historyLength = () => page.evaluate(() => window.history.length);

  await page.goto('/cards');
  await page.getByLabel('Search cards').fill(account.id);
  await expect(page).toHaveURL(new RegExp(`/cards\\?search=${account.id}$`));
  await expect(pageText(page)).toHaveText('Page 1 of 2 (11 total)');
  const entries = await historyLength();
  // A slower page widens the gap between the table's write and the router rendering it, where Back once
  // left the list on page 2 (the router showed no change). The list must not depend on that gap's length.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(pageText(page)).toHaveText('Page 2 of 2 (11 total)');
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`/cards\\?search=${account.id}&page=2$`));
  expect(await historyLength()).toBe(entries + 1);

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/cards\\?search=${account.id}$`));
  await expect(pageText(page)).toHaveText('Page 1 of 2 (11 total)');
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(page.getByLabel('Search cards')).toHaveValue(account.id);

  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/cards\\?search=${account.id}&page=2$`));
  await expect(pageText(page)).toHaveText('Page 2 of 2 (11 total)');
  await expect(bodyRows(page)).toHaveCount(1);
  // Back and Forward wrote nothing: the two entries are still the only ones.
  expect(await historyLength()).toBe(entries + 1);
});

test('a link with sort, search and a filter opens the list sorted and filtered', async ({ page, api }) => {
  const { account, cards, numbers } = await accountWithCards(api, 3);
  const blocked = await issueCard(api, account.id);
  await blockCard(api, blocked.id);

  await page.goto(`/cards?sort=number,asc&search=${account.id}&status=active`);
  await expect(page.getByLabel('Search cards')).toHaveValue(account.id);
  await expect(page.getByRole('combobox', { name: 'Filter by status' })).toHaveText('Active');
  await expect(cardsTable(page).getByRole('columnheader', { name: 'Card Number' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(bodyRows(page)).toHaveCount(cards.length);
  for (const [i, number] of numbers.entries()) await expect(bodyRows(page).nth(i)).toContainText(number);
});

test('values the list cannot take are ignored: the list opens without an error', async ({ page, api }) => {
  const { account } = await accountWithCards(api, 2);
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/v1/cards') statuses.push(response.status());
  });

  await page.goto(`/cards?sort=nosuchfield,asc&page=-3&status=nonsense&search=${account.id}`);
  await expect(page.getByLabel('Search cards')).toHaveValue(account.id);
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(pageText(page)).toHaveText('Page 1 of 1 (2 total)');
  await expect(page.getByRole('combobox', { name: 'Filter by status' })).toHaveText('All statuses');
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.every((status) => status === 200)).toBe(true);
  // One look, not a wait for absence: every list call above answered 200, so no error toast was asked for.
  expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
});

test('/users: rows deleted elsewhere, Refresh on a page that is gone shows page 1 fresh; one Back leaves the list', async ({
  page,
  api,
  createUser,
}) => {
  const team = uniqueName('gone');
  const users = [];
  for (let i = 0; i < 12; i++) {
    users.push(await createUser('VIEWER', { username: `${team}-${String(i).padStart(2, '0')}` }));
  }
  const rows = page.getByRole('table', { name: 'Users' }).locator('tbody tr');
  const listUrl = new RegExp(`/users\\?search=${team}$`);

  // An entry before the list: Back from the corrected list must get there, not to a second copy of the list.
  await page.goto('/cards');
  await expect(pageText(page)).toBeVisible();
  await page.goto(`/users?search=${team}`);
  await expect(pageText(page)).toHaveText('Page 1 of 2 (12 total)');
  await expect(rows).toHaveCount(10);
  // Two users of page 1 (cached now) go: a stale copy of it would still show them.
  const firstPage = (await rows.allInnerTexts()).join('\n');
  const gone = users.filter((user) => firstPage.includes(user.username)).slice(0, 2);
  expect(gone).toHaveLength(2);

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(pageText(page)).toHaveText('Page 2 of 2 (12 total)');
  await expect(rows).toHaveCount(2);
  for (const user of gone) expect((await api.delete(`${USERS_PATH}/${user.id}`)).status()).toBe(204);

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page).toHaveURL(listUrl);
  await expect(pageText(page)).toHaveText('Page 1 of 1 (10 total)');
  await expect(rows).toHaveCount(10);
  for (const user of gone) await expect(rows.filter({ hasText: user.username })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();

  await page.goBack();
  await expect(page).toHaveURL(/\/cards$/);
});

test('a page past the last of an empty result falls back to page 1', async ({ page }) => {
  await page.goto(`/cards?search=${uniqueName('nomatch')}&page=99999`);
  await expect(page).toHaveURL((url) => url.pathname === '/cards' && !url.searchParams.has('page'));
  await expect(pageText(page)).toHaveText('Page 1 of 1 (0 total)');
  await expect(cardsTable(page)).toContainText('No results.');
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
});

test('a link status in another case shows in the filter as the server reads it', async ({ page }) => {
  await page.goto('/rulesets?status=active');
  await expect(page.getByRole('combobox', { name: 'Filter by status' })).toHaveText('Active');
});

test('a link sort field in another case shows on its header as the server sorts', async ({ page }) => {
  await page.goto('/accounts?sort=CLIENTID,desc');
  await expect(
    page.getByRole('table', { name: 'Accounts' }).getByRole('columnheader', { name: 'Client ID' }),
  ).toHaveAttribute('aria-sort', 'descending');
});

test('a search the server cannot take (NUL) is ignored: the list opens without an error', async ({
  page,
}) => {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/cards');
  await page.goto('/cards?search=ab%00cd');
  expect((await answer).status()).toBe(200);
  await expect(page.getByLabel('Search cards')).toHaveValue('');
  await expect(pageText(page)).toBeVisible();
  await expect(cardsTable(page).getByRole('button', { name: 'Try again' })).toHaveCount(0);
});
