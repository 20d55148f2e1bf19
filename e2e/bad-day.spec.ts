import type { Dialog, Page } from '@playwright/test';
import { accountRowAction as rowAction, showAccount } from './support/accounts-screen';
import { expect, test, toast } from './support/fixtures';
import { cardsOf, createAccount, getAccount, holdRequests } from './support/loyalty-api';
import { createRuleset } from './support/programme-api';

// What goes wrong on a bad day, and must not cost data: a double click on a confirm, a write whose answer
// never comes, a reload in the middle of work.
test.describe.configure({ mode: 'parallel' });

const ACCRUAL = '**/api/v1/admin/operations/manual-accrual';
const isAccrual = (url: string) => url.endsWith('/api/v1/admin/operations/manual-accrual');

/**
 * The console's time limit for a call (lib/api-client.ts, 30 s), shortened on the open page so a test waits
 * for the timeout without waiting 30 s; undefined puts the 30 s back.
 */
async function setRequestTimeout(page: Page, ms: number | undefined) {
  await page.evaluate((value) => {
    (window as { __loyaltyRequestTimeoutMs?: number }).__loyaltyRequestTimeoutMs = value;
  }, ms);
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('a double click on a confirm button does its action once', async ({ page, api }) => {
  const account = await createAccount(api);
  const sent: string[] = [];
  const answered: number[] = [];
  const isIssue = (url: string) => url.endsWith(`/api/v1/cards/issue/${account.id}`);
  page.on('request', (r) => r.method() === 'POST' && isIssue(r.url()) && sent.push(r.url()));
  page.on(
    'response',
    (r) => r.request().method() === 'POST' && isIssue(r.url()) && answered.push(r.status()),
  );
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'Issue Card');
  const confirm = page.getByRole('alertdialog', { name: 'Issue Card' });
  // Both clicks land before React renders the button as pending.
  await confirm.getByRole('button', { name: 'Issue Card' }).dblclick();
  await expect(toast(page, 'Card issued successfully')).toBeVisible();
  await expect(confirm).toBeHidden();
  // Every call sent has been answered before the server's cards are counted.
  await expect.poll(() => answered.length).toBe(sent.length);
  expect(sent).toHaveLength(1);
  expect(await cardsOf(api, account.id)).toHaveLength(1);
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'Card issued successfully' }),
  ).toHaveCount(1);
});

test('a credit whose answer never comes times out, says it may have been booked, and the dialog closes', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);
  // The server books the credit; its answer is held on the way back until the test ends.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let booked: (status: number) => void = () => {};
  const bookedStatus = new Promise<number>((resolve) => {
    booked = resolve;
  });
  await page.route(ACCRUAL, async (route) => {
    const response = await route.fetch();
    booked(response.status());
    await held;
    // The page gave up on it meanwhile.
    await route.fulfill({ response }).catch(() => {});
  });
  await rowAction(page, account.clientId, 'Add Points');
  const dialog = page.getByRole('dialog', { name: 'Add Points' });
  await dialog.getByLabel('Points', { exact: true }).fill('125');
  await setRequestTimeout(page, 2000);
  await dialog.getByRole('button', { name: 'Add Points' }).click();
  expect(await bookedStatus).toBe(201);
  await expect(
    toast(
      page,
      'Manual accrual: No answer from the server. It may have been saved: check before trying again.',
    ),
  ).toBeVisible();
  await setRequestTimeout(page, undefined);
  // No longer locked: the button is back, and Escape closes the dialog.
  await expect(dialog.getByRole('button', { name: 'Add Points' })).toBeEnabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  release();
  expect((await getAccount(api, account.id)).balance).toBe(125);
});

test('the same credit entered again after a reload replays the one booked, not a second', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);
  // Booked by the server, but the connection drops before its answer reaches the page.
  let lost = false;
  await page.route(ACCRUAL, async (route) => {
    if (lost) return route.fallback();
    lost = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
  const keys: string[] = [];
  page.on('request', (r) => isAccrual(r.url()) && keys.push(r.headers()['idempotency-key'] ?? ''));
  await rowAction(page, account.clientId, 'Add Points');
  const dialog = page.getByRole('dialog', { name: 'Add Points' });
  await dialog.getByLabel('Points', { exact: true }).fill('125');
  await dialog.getByLabel('Reason (optional)').fill('Goodwill');
  await dialog.getByRole('button', { name: 'Add Points' }).click();
  await expect(toast(page, 'Manual accrual: Network error. Please check your connection.')).toBeVisible();
  expect((await getAccount(api, account.id)).balance).toBe(125);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // What the user does next: reload to see whether it went through, and enter the credit again.
  await page.reload();
  await showAccount(page, account.clientId);
  await rowAction(page, account.clientId, 'Add Points');
  await dialog.getByLabel('Points', { exact: true }).fill('125');
  await dialog.getByLabel('Reason (optional)').fill('Goodwill');
  const replayed = page.waitForResponse((r) => isAccrual(r.url()) && r.status() === 201);
  await dialog.getByRole('button', { name: 'Add Points' }).click();
  expect((await (await replayed).allHeaders())['idempotent-replayed']).toBe('true');
  await expect(toast(page, 'Successfully added 125 points to account')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  expect((await getAccount(api, account.id)).balance).toBe(125);

  // Once answered, the same credit again is meant as a second one: a new key, booked.
  await rowAction(page, account.clientId, 'Add Points');
  await dialog.getByLabel('Points', { exact: true }).fill('125');
  await dialog.getByLabel('Reason (optional)').fill('Goodwill');
  await dialog.getByRole('button', { name: 'Add Points' }).click();
  await expect(dialog).toBeHidden();
  expect(keys).toHaveLength(3);
  expect(keys[2]).not.toBe(keys[0]);
  expect((await getAccount(api, account.id)).balance).toBe(250);
});

/** Closes the page as a user leaving it would, and checks that nothing asked first (no beforeunload). */
async function expectClosesWithoutAsking(page: Page) {
  let questions = 0;
  page.on('dialog', () => {
    questions += 1;
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(questions).toBe(0);
}

/** Asks the page to close as a tab close would; resolves with the "Leave site?" dialog it raised, if any. */
async function tryToLeave(page: Page): Promise<Dialog | null> {
  const asked = page.waitForEvent('dialog', { timeout: 5000 }).catch(() => null);
  await page.close({ runBeforeUnload: true });
  return asked;
}

test('leaving with typed changes or a write waiting for its answer asks first', async ({ page, api }) => {
  const account = await createAccount(api);
  await showAccount(page, account.clientId);

  // A form dialog with something typed.
  await page.getByRole('button', { name: 'Create Account' }).click();
  const create = page.getByRole('dialog', { name: 'Create Account' });
  await create.getByLabel('Client ID').fill('typed but not saved');
  let asked = await tryToLeave(page);
  expect(asked?.type()).toBe('beforeunload');
  await asked?.dismiss();
  expect(page.isClosed()).toBe(false);
  await page.keyboard.press('Escape');
  await expect(create).toBeHidden();

  // A confirmed write whose answer has not come yet.
  const issue = await holdRequests(page, `**/api/v1/cards/issue/${account.id}`);
  await rowAction(page, account.clientId, 'Issue Card');
  const confirm = page.getByRole('alertdialog', { name: 'Issue Card' });
  await confirm.getByRole('button', { name: 'Issue Card' }).click();
  await expect(confirm.getByRole('button', { name: 'Issuing...' })).toBeVisible();
  asked = await tryToLeave(page);
  expect(asked?.type()).toBe('beforeunload');
  await asked?.dismiss();
  issue.release();
  await expect(toast(page, 'Card issued successfully')).toBeVisible();
  await expect(confirm).toBeHidden();

  // Nothing typed, nothing waiting: the page closes without a question.
  await expectClosesWithoutAsking(page);
});

test('leaving Settings with a value typed and not saved asks first', async ({ page }) => {
  await page.goto('/settings');
  const cards = page.getByLabel('Cards per Account');
  await expect(cards).toBeEnabled();
  await cards.fill('7');
  const asked = await tryToLeave(page);
  expect(asked?.type()).toBe('beforeunload');
  await asked?.dismiss();
  expect(page.isClosed()).toBe(false);
  // Reset drops the edit, and with it the question.
  await page
    .getByRole('form', { name: 'Point Holds Configuration' })
    .getByRole('button', { name: 'Reset' })
    .click();
  await expectClosesWithoutAsking(page);
});

test('leaving the Create Ruleset form with a value typed and not saved asks first', async ({ page }) => {
  await page.goto('/rulesets');
  const form = page.getByRole('form', { name: 'Create Ruleset' });
  await form.getByLabel('Accrual Percentage').fill('4.5');
  const asked = await tryToLeave(page);
  expect(asked?.type()).toBe('beforeunload');
  await asked?.dismiss();
  expect(page.isClosed()).toBe(false);
  // Emptied again, the form has nothing to lose: the page closes without a question.
  await form.getByLabel('Accrual Percentage').fill('');
  await expectClosesWithoutAsking(page);
});

/** A ruleset's details dialog, its backtest asked for and its answer held until `release`. */
async function runHeldBacktest(page: Page, api: Parameters<typeof createRuleset>[0], timeoutMs?: number) {
  const ruleset = await createRuleset(api);
  const held = await holdRequests(page, `**/api/v1/rulesets/${ruleset.id}/backtest`);
  await page.goto('/rulesets');
  if (timeoutMs !== undefined) await setRequestTimeout(page, timeoutMs);
  await page.getByLabel('Search rulesets').fill(String(ruleset.version));
  await page.getByRole('button', { name: String(ruleset.version), exact: true }).click();
  const details = page.getByRole('dialog', { name: `Ruleset Version ${ruleset.version}`, exact: true });
  await details.getByRole('button', { name: 'Run Backtest' }).click();
  await expect(details.getByRole('button', { name: 'Running...' })).toBeVisible();
  return { details, release: held.release };
}

test('a backtest writes nothing: it outlasts the time limit of a write', async ({ page, api }) => {
  const { details, release } = await runHeldBacktest(page, api, 500);
  // Well past the limit of other calls, it still runs (it was cut with "It may have been saved").
  await page.waitForTimeout(1500);
  await expect(details.getByRole('button', { name: 'Running...' })).toBeVisible();
  release();
  await expect(details.getByRole('heading', { name: 'Backtest result' })).toBeVisible();
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'No answer from the server' }),
  ).toHaveCount(0);
});

test('leaving while a backtest runs is not asked about: it writes nothing', async ({ page, api }) => {
  const { release } = await runHeldBacktest(page, api);
  expect(await tryToLeave(page)).toBeNull();
  await expect.poll(() => page.isClosed()).toBe(true);
  release();
});
