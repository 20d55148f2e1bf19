import type { Account } from '@loyalty/contracts';
import type { Page } from '@playwright/test';
import { accountRowAction, showAccount } from './support/accounts-screen';
import {
  ADMIN,
  apiLogin,
  expect,
  expectJson,
  seedSession,
  test,
  toast,
  uniqueName,
} from './support/fixtures';
import { blockCard, cardsOf, createAccount } from './support/loyalty-api';
import { openPosKeys } from './support/pos-api-helpers';
import { startWebhookReceiver } from './support/webhook-receiver';

// A create whose answer is lost (the POST reached the server, which made the row, and the connection was cut
// before the answer reached the page): pressing the button again must give the one already made (the same
// Idempotency-Key, replayed), not a second one, nor a refusal of the user's own first save.
test.describe.configure({ mode: 'parallel' });

/**
 * Lets the first POST to `path` through to the server, then cuts the connection before its answer reaches the
 * page; later calls go through. Returns the Idempotency-Key of every POST the page sent there.
 */
async function loseFirstAnswer(page: Page, path: string): Promise<string[]> {
  const keys: string[] = [];
  let lost = false;
  await page.route(`**${path}`, async (route) => {
    const request = route.request();
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== path) return route.fallback();
    keys.push(request.headers()['idempotency-key'] ?? '');
    if (lost) return route.fallback();
    lost = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
  return keys;
}

const replayedCreate = (page: Page, path: string) =>
  page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path && r.status() === 201,
  );

test('Create Ruleset with Version Auto, its answer lost, pressed again: one ruleset', async ({
  page,
  signIn,
  createUser,
  api,
}) => {
  // A manager of this test's own: the audit log tells how many rulesets they created.
  const manager = await createUser('MANAGER');
  await signIn(page, manager);
  const keys = await loseFirstAnswer(page, '/api/v1/rulesets');
  await page.goto('/rulesets');
  const form = page.getByRole('form', { name: 'Create Ruleset' });
  await expect(form.getByLabel('Version')).toHaveValue('');
  await form.getByLabel('Accrual Percentage').fill('3.33');
  const create = form.getByRole('button', { name: 'Create Ruleset' });
  await create.click();
  await expect(toast(page, 'Create failed')).toBeVisible();
  // The values are still there; the user presses again.
  await expect(form.getByLabel('Accrual Percentage')).toHaveValue('3.33');
  const replayed = replayedCreate(page, '/api/v1/rulesets');
  await create.click();
  expect((await (await replayed).allHeaders())['idempotent-replayed']).toBe('true');
  await expect(toast(page, 'Ruleset created successfully')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).not.toBe('');
  expect(keys[1]).toBe(keys[0]);
  const audit = await expectJson<{ content: { message: string }[] }>(
    await api.get('/api/v1/audit', { params: { username: manager.username, targetType: 'ruleset' } }),
  );
  expect(audit.content.map((e) => e.message)).toEqual([
    expect.stringMatching(/^Created ruleset version \d+ \(3\.33%/),
  ]);
});

test('Add POS Key, its answer lost, pressed again: the key is created once, not refused', async ({
  page,
  signIn,
  api,
}) => {
  await signIn(page);
  const name = uniqueName('Lost answer till');
  const keys = await loseFirstAnswer(page, '/api/v1/pos-keys');
  await openPosKeys(page);
  await page.getByRole('button', { name: 'Add POS Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add POS Key' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Generate random API key' }).click();
  await dialog.getByRole('button', { name: 'Create POS Key' }).click();
  await expect(toast(page, 'Failed to create POS key')).toBeVisible();
  await expect(dialog).toBeVisible();
  const replayed = replayedCreate(page, '/api/v1/pos-keys');
  await dialog.getByRole('button', { name: 'Create POS Key' }).click();
  expect((await (await replayed).allHeaders())['idempotent-replayed']).toBe('true');
  await expect(toast(page, 'POS key created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  const listed = await expectJson<{ content: { name: string }[] }>(
    await api.get('/api/v1/pos-keys', { params: { search: name } }),
  );
  expect(listed.content.map((k) => k.name)).toEqual([name]);
});

/** Issue Card from the client's row menu, confirmed; the confirm closes whatever the answer. */
async function issueCardFromRow(page: Page, clientId: string) {
  await accountRowAction(page, clientId, 'Issue Card');
  const confirm = page.getByRole('alertdialog', { name: 'Issue Card' });
  await confirm.getByRole('button', { name: 'Issue Card' }).click();
  await expect(confirm).toBeHidden();
}

/** The error toast of a call that failed under `context` (lib/handle-server-error.ts: "Issue card: …"). */
const failedToast = (page: Page, context: string) =>
  page
    .locator('[data-sonner-toast]')
    .filter({ hasText: `${context}: ` })
    .first();

test('Issue Card, its answer lost, asked again: one card', async ({ page, signIn, api }) => {
  await signIn(page);
  const account = await createAccount(api);
  const path = `/api/v1/cards/issue/${account.id}`;
  const keys = await loseFirstAnswer(page, path);
  await showAccount(page, account.clientId);
  const issue = () => issueCardFromRow(page, account.clientId);
  await issue();
  await expect(failedToast(page, 'Issue card')).toBeVisible();
  const replayed = replayedCreate(page, path);
  await issue();
  expect((await (await replayed).allHeaders())['idempotent-replayed']).toBe('true');
  await expect(toast(page, 'Card issued successfully')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).not.toBe('');
  expect(keys[1]).toBe(keys[0]);
  expect(await cardsOf(api, account.id)).toHaveLength(1);
});

test("Issue Card, its answer lost, then the card blocked and asked again past the key's lifetime: a new card", async ({
  page,
  signIn,
  api,
}) => {
  // The page's clock, moved past the kept key's 10 minutes (lib/idempotency-key.ts) without waiting for them.
  await page.clock.install();
  await signIn(page);
  const account = await createAccount(api);
  const path = `/api/v1/cards/issue/${account.id}`;
  const keys = await loseFirstAnswer(page, path);
  await showAccount(page, account.clientId);
  const issue = () => issueCardFromRow(page, account.clientId);
  await issue();
  await expect(failedToast(page, 'Issue card')).toBeVisible();
  // The member lost that card: it is blocked, and a while later the page is reloaded and a card issued again.
  const [first] = await cardsOf(api, account.id);
  await blockCard(api, first!.id, 'lost');
  await page.clock.fastForward('11:00');
  await page.reload();
  await showAccount(page, account.clientId);
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path,
  );
  await issue();
  const answer = await answered;
  expect(answer.status()).toBe(201);
  // Before the fix the old key was sent again, and the old (now blocked) card's answer replayed.
  expect((await answer.allHeaders())['idempotent-replayed']).toBeUndefined();
  await expect(toast(page, 'Card issued successfully')).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[1]).not.toBe(keys[0]);
  const cards = await cardsOf(api, account.id);
  expect(cards).toHaveLength(2);
  expect(cards.filter((c) => c.status === 'active')).toHaveLength(1);
});

test("a lost create keeps no request text in the tab's storage, and Logout leaves no kept key", async ({
  page,
  request,
  baseURL,
  api,
}) => {
  // A session of its own: Logout ends it on the server, and the worker's shared one must live on.
  const own = await apiLogin(request, ADMIN);
  await seedSession(
    page,
    new URL(baseURL as string).origin,
    own.token,
    Date.now() + own.expiresInSeconds * 1000,
  );
  const receiver = await startWebhookReceiver(200);
  try {
    const url = `${receiver.url(uniqueName('lost-answer-token'))}?token=TOPSECRET-123`;
    await loseFirstAnswer(page, '/api/v1/webhooks');
    await page.goto('/webhooks');
    await page.getByRole('button', { name: 'Add Endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add Endpoint' });
    await add.getByLabel('URL').fill(url);
    await add.getByRole('checkbox', { name: 'points.expired' }).check();
    await add.getByRole('button', { name: 'Add Endpoint' }).click();
    await expect(toast(page, 'Failed to add the endpoint')).toBeVisible();
    const stored = () =>
      page.evaluate(() =>
        Object.entries(sessionStorage).filter(([name]) => name.startsWith('idempotency-key:')),
      );
    // The key is kept for the retry, under a name that says nothing of the request.
    const kept = await stored();
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept)).not.toContain('TOPSECRET');
    expect(JSON.stringify(kept)).not.toContain('webhook');
    await page.keyboard.press('Escape');
    await expect(add).toBeHidden();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await stored()).toEqual([]);
    const endpoints = await expectJson<{ id: string; url: string }[]>(await api.get('/api/v1/webhooks'));
    for (const made of endpoints.filter((e) => e.url === url))
      await api.delete(`/api/v1/webhooks/${made.id}`);
  } finally {
    await receiver.close();
  }
});

test('Create Account, its answer lost, saved again: the account is created once, not "already exists"', async ({
  page,
  signIn,
  api,
}) => {
  await signIn(page);
  const bystander = await createAccount(api);
  const clientId = uniqueName('lost-answer-client');
  const keys = await loseFirstAnswer(page, '/api/v1/accounts');
  await showAccount(page, bystander.clientId);
  await page.getByRole('button', { name: 'Create Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Account' });
  await dialog.getByLabel('Client ID').fill(clientId);
  const save = dialog.getByRole('button', { name: 'Create Account' });
  await save.click();
  await expect(failedToast(page, 'Create account')).toBeVisible();
  await expect(dialog.getByLabel('Client ID')).toHaveValue(clientId);
  // Before the fix the retry was refused (409 "already exists"), so any answer is awaited, not only a 201.
  const replayed = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/accounts',
  );
  await save.click();
  const answer = await replayed;
  expect(answer.status()).toBe(201);
  expect((await answer.allHeaders())['idempotent-replayed']).toBe('true');
  await expect(toast(page, 'Account created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(keys).toHaveLength(2);
  expect(keys[0]).not.toBe('');
  expect(keys[1]).toBe(keys[0]);
  const found = await expectJson<{ content: Account[] }>(
    await api.get('/api/v1/accounts', { params: { search: clientId } }),
  );
  expect(found.content.map((a) => a.clientId)).toEqual([clientId]);
});

test('Add Endpoint, its answer lost, pressed again: one endpoint, and its secret is shown', async ({
  page,
  signIn,
  api,
}) => {
  const receiver = await startWebhookReceiver(200);
  try {
    const url = receiver.url(uniqueName('lost-answer'));
    await signIn(page);
    const keys = await loseFirstAnswer(page, '/api/v1/webhooks');
    await page.goto('/webhooks');
    await page.getByRole('button', { name: 'Add Endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add Endpoint' });
    await add.getByLabel('URL').fill(url);
    // An event no write emits yet (as in webhooks.spec.ts): nothing is queued for this endpoint.
    await add.getByRole('checkbox', { name: 'points.expired' }).check();
    await add.getByRole('button', { name: 'Add Endpoint' }).click();
    await expect(toast(page, 'Failed to add the endpoint')).toBeVisible();
    await expect(add).toBeVisible();
    const replayed = replayedCreate(page, '/api/v1/webhooks');
    await add.getByRole('button', { name: 'Add Endpoint' }).click();
    const answer = await replayed;
    expect((await answer.allHeaders())['idempotent-replayed']).toBe('true');
    const { secret } = (await answer.json()) as { secret: string };
    await expect(toast(page, 'Webhook endpoint added')).toBeVisible();
    // The secret shown once is the endpoint's own: the replay carries it again.
    const shown = page.getByRole('dialog', { name: 'Endpoint Added', exact: true });
    await expect(shown.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(secret);
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe('');
    expect(keys[1]).toBe(keys[0]);
    const endpoints = await expectJson<{ id: string; url: string }[]>(await api.get('/api/v1/webhooks'));
    const made = endpoints.filter((e) => e.url === url);
    expect(made).toHaveLength(1);
    const revealed = await expectJson<{ secret: string }>(
      await api.get(`/api/v1/webhooks/${made[0]!.id}/secret`),
    );
    expect(revealed.secret).toBe(secret);
    await api.delete(`/api/v1/webhooks/${made[0]!.id}`);
  } finally {
    await receiver.close();
  }
});
