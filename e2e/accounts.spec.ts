import {
  accountRowAction as rowAction,
  accountRow as rowFor,
  showAccount,
  accountsTable as table,
} from './support/accounts-screen';
import { axeScan } from './support/axe';
import { expect, test, toast, uniqueName } from './support/fixtures';
import {
  addPoints,
  cardsOf,
  createAccount,
  createCardholder,
  failWith,
  fitsViewport,
  getAccount,
  holdPoints,
  holdRequests,
  issueCard,
} from './support/loyalty-api';

// Spec section 2 "Accounts", 4 "Card", 5 "Create account" / "Add points", 8 toasts, 9 dialog page sizes.
test.describe.configure({ mode: 'parallel' });

const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('lists accounts: masked active card or No card, balance in pts, Held only above 0, created', async ({
  page,
  api,
  request,
}) => {
  const prefix = uniqueName('acct');
  const held = await createAccount(api, `${prefix}-held`);
  const card = await issueCard(api, held.id);
  await addPoints(api, held.id, 1234.5);
  await holdPoints(api, request, card.number, 34.25);
  const empty = await createAccount(api, `${prefix}-empty`);

  await page.goto('/accounts');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await expect(table(page).getByRole('columnheader')).toHaveText([
    'Client ID',
    'Active Card',
    'Balance',
    'Created',
    'Actions',
  ]);
  await page.getByLabel('Search accounts').fill(prefix);
  await expect(table(page).getByRole('row')).toHaveCount(3);

  const heldRow = rowFor(page, held.clientId).getByRole('cell');
  await expect(heldRow.nth(1)).toHaveText(`****${card.number.slice(-4)}`);
  await expect(heldRow.nth(2)).toHaveText('1,234.5 ptsHeld: 34.25 pts');
  await expect(heldRow.nth(3)).toHaveText(DATE);
  await expect(rowFor(page, held.clientId)).not.toContainText(card.number);

  const emptyRow = rowFor(page, empty.clientId).getByRole('cell');
  await expect(emptyRow.nth(1)).toHaveText('No card');
  await expect(emptyRow.nth(2)).toHaveText('0 pts');
});

test('a nine-figure balance shows whole in the Balance column', async ({ page, api }) => {
  const account = await createAccount(api);
  await addPoints(api, account.id, 123456789.12);
  await showAccount(page, account.clientId);
  const balance = rowFor(page, account.clientId).getByRole('cell').nth(2);
  await expect(balance).toHaveText('123,456,789.12 pts');
  // Not cut to '123,456,789.1…' by the cell's ellipsis.
  expect(await balance.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
});

test("Create Account: 'Client ID is required', the trimmed ID is sent, 'Account created successfully'", async ({
  page,
}) => {
  const clientId = uniqueName('new-client');
  await page.goto('/accounts');
  await page.getByRole('button', { name: 'Create Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  const input = dialog.getByLabel('Client ID');
  await expect(input).toBeFocused();

  await input.fill('   ');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(dialog.getByText('Client ID is required')).toBeVisible();
  await expect(input).toHaveAttribute('aria-invalid', 'true');

  await input.fill(`  ${clientId}  `);
  const gate = await holdRequests(page, '**/api/v1/accounts');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/accounts') && r.method() === 'POST');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  expect((await sent).postDataJSON()).toEqual({ clientId });
  await expect(dialog.getByRole('button', { name: 'Creating...' })).toBeDisabled();
  gate.release();
  await expect(toast(page, 'Account created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByLabel('Search accounts').fill(clientId);
  await expect(rowFor(page, clientId)).toContainText('No card');
});

test('Create Account: a taken client ID goes through the common handler; Escape closes', async ({
  page,
  api,
}) => {
  const taken = await createAccount(api);
  await page.goto('/accounts');
  await page.getByRole('button', { name: 'Create Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  await dialog.getByLabel('Client ID').fill(taken.clientId);
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(
    toast(page, `Create account: An account with client ID '${taken.clientId}' already exists`),
  ).toBeVisible();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeFocused();
});

test("Issue Card from the row menu: 'Card issued successfully' and the masked card in the row", async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'Issue Card');
  const confirm = page.getByRole('alertdialog', { name: 'Issue Card' });
  await expect(confirm).toContainText(account.clientId);
  await confirm.getByRole('button', { name: 'Issue Card' }).click();
  await expect(toast(page, 'Card issued successfully')).toBeVisible();
  await expect(confirm).toBeHidden();

  const [card] = await cardsOf(api, account.id);
  expect(card?.status).toBe('active');
  await expect(rowFor(page, account.clientId).getByRole('cell').nth(1)).toHaveText(
    `****${card?.number.slice(-4)}`,
  );
});

test("CARD_LIMIT_EXCEEDED shows 'Card limit exceeded for this client' with the Issue card label", async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await page.route(
    `**/api/v1/cards/issue/${account.id}`,
    failWith(409, 'Card limit exceeded for this client (at most 3 cards)', 'CARD_LIMIT_EXCEEDED'),
  );
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'Issue Card');
  await page
    .getByRole('alertdialog', { name: 'Issue Card' })
    .getByRole('button', { name: 'Issue Card' })
    .click();
  await expect(toast(page, 'Issue card: Card limit exceeded for this client')).toBeVisible();
});

test('Cards dialog: page sizes 5/10/20/50 (10 by default), Issue New Card, Block with confirmation, Reissue', async ({
  page,
  api,
}) => {
  const { account, card } = await createCardholder(api);
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'View Cards');
  const dialog = page.getByRole('dialog', { name: 'Cards' });
  const cards = dialog.getByRole('table', { name: `Cards of ${account.clientId}` });
  await expect(cards.getByRole('row')).toHaveCount(2);
  await expect(cards).toContainText(card.number);

  const pageSize = dialog.getByRole('combobox', { name: 'Rows per page' });
  await expect(pageSize).toHaveText('10');
  await pageSize.click();
  await expect(page.getByRole('option')).toHaveText(['5', '10', '20', '50']);
  await page.getByRole('option', { name: '5', exact: true }).click();
  await expect(pageSize).toHaveText('5');

  await dialog.getByRole('button', { name: 'Issue New Card' }).click();
  await expect(toast(page, 'Card issued successfully')).toBeVisible();
  await expect(cards.getByRole('row')).toHaveCount(3);

  // Block: a confirmation that says it cannot be undone; the reason is 'Blocked by admin'.
  await dialog.getByRole('button', { name: `Block card ${card.number}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Block Card' });
  await expect(confirm).toContainText('cannot be undone');
  await expect(confirm).toContainText(card.number);
  const sent = page.waitForRequest((r) => r.url().endsWith(`/api/v1/cards/${card.id}/block`));
  await confirm.getByRole('button', { name: 'Block Card' }).click();
  expect((await sent).postDataJSON()).toEqual({ reason: 'Blocked by admin' });
  await expect(toast(page, 'Card blocked successfully')).toBeVisible();
  const blockedRow = cards.getByRole('row').filter({ hasText: card.number });
  await expect(blockedRow).toContainText('Blocked by admin');
  await expect(blockedRow.getByRole('button', { name: `Block card ${card.number}` })).toHaveCount(0);

  // A blocked card can only be reissued.
  await blockedRow.getByRole('button', { name: `Reissue card ${card.number}` }).click();
  const reissue = page.getByRole('alertdialog', { name: 'Reissue Card' });
  await expect(reissue).toContainText(
    'Are you sure you want to reissue this card? This will create a new card number.',
  );
  await reissue.getByRole('button', { name: 'Reissue Card' }).click();
  await expect(toast(page, 'Card reissued successfully')).toBeVisible();
  await expect(cards.getByRole('row')).toHaveCount(4);
  expect(await cardsOf(api, account.id)).toHaveLength(3);
  // A card is replaced once (issue 16): the reissued card offers no second Reissue.
  await expect(blockedRow.getByRole('button', { name: `Reissue card ${card.number}` })).toHaveCount(0);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('View Cards, Operations and Lots open with focus on the dialog: an Enter changes nothing, Escape goes back to the row menu', async ({
  page,
  api,
}) => {
  const { account } = await createCardholder(api);
  await showAccount(page, account.clientId);
  const actions = page.getByRole('button', { name: `Actions for ${account.clientId}`, exact: true });
  for (const [item, title] of [
    ['View Cards', 'Cards'],
    ['View Operations', 'Operations'],
    ['View Lots', 'Lots'],
  ] as const) {
    await actions.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: item, exact: true }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog.getByRole('table', { name: `${title} of ${account.clientId}` })).toBeVisible();
    if (title === 'Cards') await expect(dialog.getByRole('button', { name: 'Issue New Card' })).toBeVisible();
    // Not on 'Issue New Card', the first control: one Enter issued a card without a confirmation.
    await expect(dialog).toBeFocused();
    expect((await axeScan(page)).violations).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(actions).toBeFocused();
  }
  expect(await cardsOf(api, account.id)).toHaveLength(1);
});

test('Cards dialog: a failed block goes through the common handler with the Block card label', async ({
  page,
  api,
}) => {
  const { account, card } = await createCardholder(api);
  await page.route(`**/api/v1/cards/${card.id}/block`, failWith(500, 'boom'));
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'View Cards');
  await page.getByRole('button', { name: `Block card ${card.number}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Block Card' })
    .getByRole('button', { name: 'Block Card' })
    .click();
  await expect(toast(page, 'Block card: Server error. Please try again later.')).toBeVisible();
});

test("Add Points: disabled when empty or ≤ 0, 'Please enter a valid points amount', success toast", async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);
  // Its lots seen before the credit: they must not be shown again as they were after it.
  await rowAction(page, account.clientId, 'View Lots');
  const lots = page.getByRole('dialog', { name: 'Lots' }).getByRole('table');
  await expect(lots.locator('tbody')).toContainText('No results.');
  await page.keyboard.press('Escape');
  await rowAction(page, account.clientId, 'Add Points');
  const dialog = page.getByRole('dialog', { name: 'Add Points' });
  const amount = dialog.getByLabel('Points', { exact: true });
  const submit = dialog.getByRole('button', { name: 'Add Points' });
  await expect(amount).toBeFocused();
  await expect(amount).toHaveAttribute('step', '0.01');
  await expect(submit).toBeDisabled();

  await amount.fill('0');
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Reason (optional)').click();
  await expect(dialog.getByText('Please enter a valid points amount')).toBeVisible();
  await amount.fill('-5');
  await expect(submit).toBeDisabled();
  // Above 0, so the button is enabled; the form then says what is wrong, in the console's words.
  await amount.fill('0.001');
  await submit.click();
  await expect(dialog.getByText('Points may have at most 2 decimal places')).toBeVisible();

  await amount.fill('1234.5');
  await dialog.getByLabel('Reason (optional)').fill('  Goodwill credit  ');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/admin/operations/manual-accrual'));
  await submit.click();
  expect((await sent).postDataJSON()).toEqual({
    accountId: account.id,
    points: 1234.5,
    reason: 'Goodwill credit',
  });
  await expect(toast(page, 'Successfully added 1,234.5 points to account')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowFor(page, account.clientId).getByRole('cell').nth(2)).toHaveText('1,234.5 pts');
  expect((await getAccount(api, account.id)).balance).toBe(1234.5);
  await rowAction(page, account.clientId, 'View Lots');
  await expect(lots.locator('tbody tr')).toHaveCount(1);
  await expect(lots.locator('tbody tr')).toContainText('1,234.5 pts');
});

test('Add Points sent again after an answer that never came is booked once: one Idempotency-Key per request', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);
  // The first request is booked, but its answer is lost on the way back (a 503 at COMMIT, a proxy's timeout).
  let lost = false;
  await page.route('**/api/v1/admin/operations/manual-accrual', async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fetch();
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ status: 503, message: 'Service unavailable', code: 'SERVICE_UNAVAILABLE' }),
    });
  });
  const keys: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/manual-accrual')) keys.push(r.headers()['idempotency-key'] ?? '');
  });
  await rowAction(page, account.clientId, 'Add Points');
  const dialog = page.getByRole('dialog', { name: 'Add Points' });
  const submit = dialog.getByRole('button', { name: 'Add Points' });
  await dialog.getByLabel('Points', { exact: true }).fill('25');
  const failed = page.waitForResponse((r) => r.url().endsWith('/manual-accrual') && r.status() === 503);
  await submit.click();
  await failed;
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(toast(page, 'Successfully added 25 points to account')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  expect((await getAccount(api, account.id)).balance).toBe(25);

  // The same amount again in a new opening is a second credit, under a new key.
  await expect(dialog).toBeHidden();
  await rowAction(page, account.clientId, 'Add Points');
  await dialog.getByLabel('Points', { exact: true }).fill('25');
  await submit.click();
  await expect(dialog).toBeHidden();
  expect(keys).toHaveLength(3);
  expect(keys[2]).not.toBe(keys[0]);
  expect((await getAccount(api, account.id)).balance).toBe(50);
});

test('Add Points: no validation message before the amount was touched', async ({ page, api }) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'Add Points');
  const dialog = page.getByRole('dialog', { name: 'Add Points' });
  const amount = dialog.getByLabel('Points', { exact: true });
  await expect(amount).toBeFocused();
  // Settled: the menu has closed and the dialog's opening animation is over.
  await expect(page.getByRole('menu')).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await expect(amount).toBeFocused();
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Please enter a valid points amount')).toHaveCount(0);
});

test('Add Points: a refused accrual shows the Manual accrual label', async ({ page, api }) => {
  const account = await createAccount(api);
  await page.route(
    '**/api/v1/admin/operations/manual-accrual',
    failWith(404, 'Account not found', 'ACCOUNT_NOT_FOUND'),
  );
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'Add Points');
  const dialog = page.getByRole('dialog', { name: 'Add Points' });
  await dialog.getByLabel('Points', { exact: true }).fill('10');
  await dialog.getByRole('button', { name: 'Add Points' }).click();
  await expect(toast(page, 'Manual accrual: Account not found')).toBeVisible();
  await expect(dialog).toBeVisible();
});

test('an erased member: the row says Erased and offers no Add Points or Erase Member; a stale Add Points is refused and closes', async ({
  page,
  api,
}) => {
  const { account } = await createCardholder(api, 5);
  // The search in the address: the list is filtered from its first answer (typed, its debounced answer could
  // come after the erasure below, and the list would not be stale).
  await page.goto(`/accounts?search=${encodeURIComponent(account.clientId)}`);
  await expect(rowFor(page, account.clientId)).toHaveCount(1);
  // Erased by someone else while this list shows the member as they were.
  const erased = await api.post(`/api/v1/accounts/${account.id}/erase`, {
    data: { confirm: account.clientId },
  });
  expect(erased.status()).toBe(200);
  const erasedId = ((await erased.json()) as { clientId: string }).clientId;

  await rowAction(page, account.clientId, 'Add Points');
  const dialog = page.getByRole('dialog', { name: 'Add Points' });
  await dialog.getByLabel('Points', { exact: true }).fill('10');
  await dialog.getByLabel('Reason (optional)').fill('Goodwill: complained by phone +44 7700 900123');
  await dialog.getByRole('button', { name: 'Add Points' }).click();
  await expect(
    toast(page, "Manual accrual: This member's data was erased; no points can be added or removed by hand"),
  ).toBeVisible();
  // Nothing more can succeed there: the dialog closes and the list reloads (the old client ID finds nothing).
  await expect(dialog).toBeHidden();
  await expect(page.getByText('No results.')).toBeVisible();
  expect((await getAccount(api, account.id)).balance).toBe(5);

  await page.getByLabel('Search accounts').fill(erasedId);
  const row = table(page).getByRole('row').filter({ hasText: erasedId });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Erased', { exact: true })).toBeVisible();
  expect((await axeScan(page)).violations).toEqual([]);
  await row.getByRole('button', { name: `Actions for ${erasedId}`, exact: true }).click();
  await expect(page.getByRole('menuitem').first()).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Add Points' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'View Operations' })).toBeVisible();
  // An administrator's menu: Export Data still, no second erasure.
  await expect(page.getByRole('menuitem', { name: 'Export Data' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Erase Member' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(row.getByRole('button', { name: `Actions for ${erasedId}`, exact: true })).toBeFocused();
});

test('Operations dialog: the widest points an operation can hold show whole', async ({ page, api }) => {
  const account = await createAccount(api);
  await addPoints(api, account.id, 123456789.12);
  // numeric(14, 2), the balance limit, either sign: no single API call books that much, so the dialog's
  // list gets the seeded operation and two widest ones beside it.
  await page.route('**/api/v1/operations?**', async (route) => {
    const listed = await (await route.fetch()).json();
    const [seeded] = listed.content;
    const content = [
      seeded,
      { ...seeded, id: crypto.randomUUID(), points: '999999999999.99' },
      { ...seeded, id: crypto.randomUUID(), type: 'expiry', points: '-999999999999.99' },
    ];
    await route.fulfill({ json: { ...listed, content, totalElements: 3 } });
  });
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'View Operations');
  const operations = page
    .getByRole('dialog', { name: 'Operations' })
    .getByRole('table', { name: `Operations of ${account.clientId}` });
  const points = operations.locator('tbody tr td:nth-child(2)');
  await expect(points).toHaveText(['+123,456,789.12', '+999,999,999,999.99', '-999,999,999,999.99']);
  // A flexible column of about 140 px cut them to '+999,999,999,9…'.
  expect(await points.evaluateAll((tds) => tds.filter((td) => td.scrollWidth > td.clientWidth).length)).toBe(
    0,
  );
});

test('Balance: ten-digit Held and Pending lines show whole, at 1280 and 390 px', async ({ page, api }) => {
  const account = await createAccount(api);
  // No API call books that much: the list's answer gets the figures, and the cell's box is measured.
  await page.route('**/api/v1/accounts?*', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const row of body.content) {
      if (row.id !== account.id) continue;
      Object.assign(row, {
        balance: 9999999999.99,
        heldBalance: 1999999999.98,
        pendingBalance: 2999999999.97,
      });
    }
    await route.fulfill({ response, json: body });
  });
  await showAccount(page, account.clientId);
  const balance = rowFor(page, account.clientId).getByRole('cell').nth(2);
  await expect(balance).toHaveText(
    '9,999,999,999.99 ptsHeld: 1,999,999,999.98 ptsPending: 2,999,999,999.97 pts',
  );
  // 176 px cut the line to 'Pending: 2,999,999,999.97 |'.
  expect(await balance.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(table(page)).toBeVisible();
  expect(await balance.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
  expect(await fitsViewport(page)).toBe(true);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('Operations dialog: paged, page sizes 10/20/50/100 (10 by default), newest first', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  for (let i = 1; i <= 12; i += 1) await addPoints(api, account.id, i, `reason ${i}`);
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'View Operations');
  const dialog = page.getByRole('dialog', { name: 'Operations' });
  const operations = dialog.getByRole('table', { name: `Operations of ${account.clientId}` });
  await expect(operations.getByRole('row')).toHaveCount(11);
  await expect(operations.getByRole('row').nth(1)).toContainText('+12');
  await expect(operations.getByRole('row').nth(1)).toContainText('Adjustment');
  await expect(operations.getByRole('row').nth(1)).toContainText('reason 12');
  await expect(dialog.getByText(/^Page 1 of 2/)).toBeVisible();

  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(operations.getByRole('row')).toHaveCount(3);
  await expect(dialog.getByText(/^Page 2 of 2/)).toBeVisible();

  const pageSize = dialog.getByRole('combobox', { name: 'Rows per page' });
  await pageSize.click();
  await expect(page.getByRole('option')).toHaveText(['10', '20', '50', '100']);
  await page.getByRole('option', { name: '20', exact: true }).click();
  await expect(operations.getByRole('row')).toHaveCount(13);
});

test('load failures use the Load accounts / Load account cards / Load account operations labels', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);
  await page.route('**/api/v1/cards?*', failWith(500, 'boom'));
  await page.route('**/api/v1/operations?*', failWith(503, 'down'));
  await rowAction(page, account.clientId, 'View Cards');
  await expect(toast(page, 'Load account cards: Server error. Please try again later.')).toBeVisible();
  await page.keyboard.press('Escape');
  await rowAction(page, account.clientId, 'View Operations');
  await expect(
    toast(page, 'Load account operations: Service temporarily unavailable. Please try again later.'),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  await page.route('**/api/v1/accounts?*', failWith(500, 'boom'));
  await page.getByLabel('Search accounts').fill(`${account.clientId}-x`);
  await expect(toast(page, 'Load accounts: Server error. Please try again later.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Accounts' }).getByRole('alert')).toContainText(
    'Failed to load accounts page',
  );
});

test('a VIEWER sees no mutation actions', async ({ page, api, signIn, createUser }) => {
  const { account } = await createCardholder(api);
  await signIn(page, await createUser('VIEWER'));
  await showAccount(page, account.clientId);
  await expect(page.getByRole('button', { name: 'Create Account' })).toHaveCount(0);

  await page.getByRole('button', { name: `Actions for ${account.clientId}` }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['View Cards', 'View Operations', 'View Lots']);
  await page.getByRole('menuitem', { name: 'View Cards' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cards' });
  await expect(dialog.getByRole('table').getByRole('row')).toHaveCount(2);
  await expect(dialog.getByRole('button', { name: 'Issue New Card' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /^(Block|Reissue) card/ })).toHaveCount(0);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the list and the dialogs fit the screen', async ({ page, api }) => {
    const { account } = await createCardholder(api, 50);
    await showAccount(page, account.clientId);
    expect(await fitsViewport(page)).toBe(true);
    await rowAction(page, account.clientId, 'View Cards');
    const dialog = page.getByRole('dialog', { name: 'Cards' });
    await expect(dialog.getByRole('button', { name: 'Issue New Card' })).toBeInViewport();
    expect(await fitsViewport(page)).toBe(true);
    await page.keyboard.press('Escape');
    await rowAction(page, account.clientId, 'Add Points');
    await expect(
      page.getByRole('dialog', { name: 'Add Points' }).getByRole('button', { name: 'Add Points' }),
    ).toBeInViewport();
    expect(await fitsViewport(page)).toBe(true);
  });

  test('a 100-character client ID wraps inside every row dialog instead of widening it', async ({
    page,
    api,
  }) => {
    const clientId = uniqueName('client').padEnd(100, 'X');
    const account = await createAccount(api, clientId);
    await issueCard(api, account.id);
    await showAccount(page, account.clientId);
    for (const [item, title] of [
      ['View Cards', 'Cards'],
      ['Issue Card', 'Issue Card'],
      ['Add Points', 'Add Points'],
      ['View Operations', 'Operations'],
    ] as const) {
      await rowAction(page, account.clientId, item);
      // Issue Card asks for confirmation: an alertdialog.
      const dialog = page
        .getByRole('dialog', { name: title })
        .or(page.getByRole('alertdialog', { name: title }));
      await expect(dialog.getByRole('heading', { name: title })).toBeInViewport({ ratio: 1 });
      // Nothing inside the dialog scrolls sideways: the ID breaks across lines.
      expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  });
});
