import type { Page } from '@playwright/test';
import { chooseOption, expect, expectJson, test, toast, uniqueName } from './support/fixtures';
import { failWith, fitsViewport, holdRequests } from './support/loyalty-api';
import { createPosKey, openPosKeys, posCardStatus } from './support/pos-api-helpers';
import { accountWithCard } from './support/programme-api';

// Spec section 2 "POS Keys", 3 "POS key", 4 "POS key", 5 "Create POS key", 6 (roles, reveal audited),
// 8 (screen toasts), 9 (generated key length 32).
test.describe.configure({ mode: 'parallel' });

const table = (page: Page) => page.getByRole('table', { name: 'POS keys' });
const rowFor = (page: Page, name: string) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name, exact: true }) });
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
const DATE_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/;

async function rowAction(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

async function openAddDialog(page: Page) {
  await page.getByRole('button', { name: 'Add POS Key' }).click();
  const add = dialog(page, 'Add POS Key');
  await expect(add).toBeVisible();
  return add;
}

test.describe('as an administrator', () => {
  test.beforeEach(async ({ page, signIn }) => {
    await signIn(page);
  });

  test("lists keys: name, address or 'Not set', status badge, created, last used or 'Never'", async ({
    page,
    api,
    request,
  }) => {
    const tag = uniqueName('list');
    const used = await createPosKey(api, { name: `${tag} Main`, address: `${tag} 12 Main Street` });
    const unused = await createPosKey(api, { name: `${tag} Kiosk`, address: null, status: 'inactive' });
    const { card } = await accountWithCard(api);
    expect(await posCardStatus(request, used.apiKey, card.number)).toBe(200);

    await openPosKeys(page, tag);
    await expect(page.getByRole('heading', { level: 1, name: 'POS Keys' })).toBeVisible();
    await expect(table(page).getByRole('columnheader')).toHaveText([
      'Name',
      'Address',
      'Status',
      'Created',
      'Last Used',
      'Actions',
    ]);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    const usedCells = rowFor(page, used.name).getByRole('cell');
    await expect(usedCells.nth(1)).toHaveText(`${tag} 12 Main Street`);
    await expect(usedCells.nth(2)).toHaveText('Active');
    await expect(usedCells.nth(3)).toHaveText(DATE);
    await expect(usedCells.nth(4)).toHaveText(DATE_TIME);
    const unusedCells = rowFor(page, unused.name).getByRole('cell');
    await expect(unusedCells.nth(1)).toHaveText('Not set');
    await expect(unusedCells.nth(2)).toHaveText('Inactive');
    await expect(unusedCells.nth(4)).toHaveText('Never');
    // The list never carries a key.
    await expect(table(page)).not.toContainText(used.apiKey);
  });

  test('search by name and by address, and the status filter active / inactive', async ({ page, api }) => {
    const tag = uniqueName('find');
    const active = await createPosKey(api, { name: `${tag} Harbour`, address: `${tag}-quay 4` });
    const inactive = await createPosKey(api, { name: `${tag} Station`, address: null, status: 'inactive' });

    await openPosKeys(page, `${tag} Harb`);
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowFor(page, active.name)).toBeVisible();
    await page.getByLabel('Search POS keys').fill(`${tag}-quay`); // the address
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowFor(page, active.name)).toBeVisible();

    await page.getByLabel('Search POS keys').fill(tag);
    await expect(table(page).getByRole('row')).toHaveCount(3);
    const filter = page.getByRole('combobox', { name: 'Filter by status' });
    await filter.click();
    await expect(page.getByRole('option')).toHaveText(['All statuses', 'Active', 'Inactive']);
    await page.getByRole('option', { name: 'Inactive', exact: true }).click();
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowFor(page, inactive.name)).toBeVisible();
    await chooseOption(page, filter, 'Active');
    await expect(table(page).getByRole('row')).toHaveCount(2);
    await expect(rowFor(page, active.name)).toBeVisible();
  });

  test("Add POS Key: 'Name and API Key are required', masked key, generator, default status", async ({
    page,
  }) => {
    await page.goto('/pos-keys');
    const add = await openAddDialog(page);
    await expect(add.getByLabel('Name', { exact: true })).toBeFocused();
    await expect(add.getByRole('combobox', { name: 'Status' })).toHaveText('Active');

    await add.getByRole('button', { name: 'Create POS Key' }).click();
    await expect(add.getByRole('alert')).toHaveText('Name and API Key are required');
    // Whitespace is not a name.
    await add.getByLabel('Name', { exact: true }).fill('   ');
    await add.getByLabel('API Key', { exact: true }).fill('x'.repeat(32));
    await add.getByRole('button', { name: 'Create POS Key' }).click();
    await expect(add.getByRole('alert')).toHaveText('Name and API Key are required');

    const key = add.getByLabel('API Key', { exact: true });
    await expect(key).toHaveAttribute('type', 'password');
    await add.getByRole('button', { name: 'Generate random API key' }).click();
    await expect(toast(page, 'API key generated')).toBeVisible();
    const first = await key.inputValue();
    expect(first).toMatch(/^[A-Za-z0-9]{32}$/);
    await add.getByRole('button', { name: 'Generate random API key' }).click();
    expect(await key.inputValue()).not.toBe(first);
    await add.getByRole('button', { name: 'Show API key' }).click();
    await expect(key).toHaveAttribute('type', 'text');
    await add.getByRole('button', { name: 'Hide API key' }).click();
    await expect(key).toHaveAttribute('type', 'password');

    await add.getByRole('button', { name: 'Cancel' }).click();
    await expect(add).toBeHidden();
    // Reopened, the form is empty again.
    await openAddDialog(page);
    await expect(page.getByLabel('API Key', { exact: true })).toHaveValue('');
  });

  test("creates a key (submit disabled while saving): 'POS key created successfully', and a till can use it", async ({
    page,
    api,
    request,
  }) => {
    const name = uniqueName('Corner Shop');
    await page.goto('/pos-keys');
    const add = await openAddDialog(page);
    await add.getByLabel('Name', { exact: true }).fill(`  ${name}  `);
    await add.getByLabel('Address').fill('7 Bridge Road');
    await add.getByRole('button', { name: 'Generate random API key' }).click();
    const apiKey = await add.getByLabel('API Key', { exact: true }).inputValue();
    await chooseOption(page, add.getByRole('combobox', { name: 'Status' }), 'Active');

    const gate = await holdRequests(page, '**/api/v1/pos-keys');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/pos-keys') && r.method() === 'POST');
    await add.getByRole('button', { name: 'Create POS Key' }).click();
    expect((await sent).postDataJSON()).toEqual({ name, address: '7 Bridge Road', apiKey, status: 'active' });
    await expect(add.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    gate.release();

    await expect(toast(page, 'POS key created successfully')).toBeVisible();
    await expect(add).toBeHidden();
    await page.getByLabel('Search POS keys').fill(name);
    await expect(rowFor(page, name).getByRole('cell').nth(2)).toHaveText('Active');
    await expect(rowFor(page, name).getByRole('cell').nth(4)).toHaveText('Never');

    const { card } = await accountWithCard(api);
    expect(await posCardStatus(request, apiKey, card.number)).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(rowFor(page, name).getByRole('cell').nth(4)).toHaveText(DATE_TIME);
  });

  test("'Failed to create POS key' with the server's message: duplicate key; too short refused inline", async ({
    page,
    api,
  }) => {
    const taken = await createPosKey(api);
    await page.goto('/pos-keys');
    const add = await openAddDialog(page);
    await add.getByLabel('Name', { exact: true }).fill(uniqueName('Copycat'));
    await add.getByLabel('API Key', { exact: true }).fill(taken.apiKey);
    await add.getByRole('button', { name: 'Create POS Key' }).click();
    const duplicate = toast(page, 'Failed to create POS key');
    // Issue 15.7: the answer no longer confirms that the key exists.
    await expect(duplicate).toContainText('This API key cannot be used. Generate a new one.');
    await expect(add).toBeVisible(); // the input stays for a correction

    // A key shorter than the contract allows is refused under the field, before anything is sent.
    const posts: string[] = [];
    page.on(
      'request',
      (r) => r.method() === 'POST' && r.url().includes('/api/v1/pos-keys') && posts.push(r.url()),
    );
    await add.getByLabel('API Key', { exact: true }).fill('tooShort123');
    await add.getByRole('button', { name: 'Create POS Key' }).click();
    await expect(add.getByText('API key must be at least 32 characters', { exact: true })).toBeVisible();
    await expect(add.getByLabel('API Key', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);
  });

  test('View API Key: reveal toast, read-only key, details, copy; the reveal is in the audit log', async ({
    page,
    api,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const posKey = await createPosKey(api, { name: uniqueName('Reveal'), address: '1 Quay Street' });
    await openPosKeys(page, posKey.name);
    const revealed = page.waitForResponse((r) => r.url().endsWith(`/api/v1/pos-keys/${posKey.id}/reveal`));
    await rowAction(page, posKey.name, 'View API Key');
    expect((await revealed).status()).toBe(200);
    await expect(toast(page, 'API key revealed and logged for audit')).toBeVisible();

    const view = dialog(page, 'View API Key');
    const field = view.getByLabel('API Key', { exact: true });
    await expect(field).toHaveValue(posKey.apiKey);
    await expect(field).toHaveAttribute('readonly', '');
    await expect(view).toContainText(`Name${posKey.name}`);
    await expect(view).toContainText('Address1 Quay Street');
    await expect(view).toContainText('StatusActive');
    await expect(view.getByText(DATE_TIME)).toBeVisible();

    await view.getByRole('button', { name: 'Copy API key' }).click();
    await expect(toast(page, 'API key copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(posKey.apiKey);

    await page.keyboard.press('Escape');
    await expect(view).toBeHidden();
    // Focus goes back to the row's menu button.
    await expect(page.getByRole('button', { name: `Actions for ${posKey.name}` })).toBeFocused();

    const audit = await expectJson<{ content: { message: string; targetId: string }[] }>(
      await api.get('/api/v1/audit', { params: { targetType: 'pos_key', targetId: posKey.id, size: 20 } }),
    );
    expect(audit.content.map((entry) => entry.message)).toContain(
      `Revealed the API key of POS key '${posKey.name}'`,
    );
    expect(JSON.stringify(audit.content)).not.toContain(posKey.apiKey);
  });

  test("'Failed to copy to clipboard' and 'Failed to reveal API key'", async ({ page, api }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        configurable: true,
        value: { writeText: () => Promise.reject(new Error('denied')) },
      });
    });
    const posKey = await createPosKey(api, { name: uniqueName('NoCopy') });
    await openPosKeys(page, posKey.name);
    await rowAction(page, posKey.name, 'View API Key');
    const view = dialog(page, 'View API Key');
    await expect(view.getByLabel('API Key', { exact: true })).toHaveValue(posKey.apiKey);
    await view.getByRole('button', { name: 'Copy API key' }).click();
    await expect(toast(page, 'Failed to copy to clipboard')).toBeVisible();
    await view.getByRole('button', { name: 'Close' }).first().click();
    await expect(view).toBeHidden();

    await page.route('**/api/v1/pos-keys/*/reveal', failWith(404, 'POS key not found', 'POS_KEY_NOT_FOUND'));
    await rowAction(page, posKey.name, 'View API Key');
    await expect(toast(page, 'Failed to reveal API key')).toContainText('POS key not found');
    await expect(view.getByRole('alert')).toContainText('Failed to reveal API key');
    await expect(view.getByLabel('API Key', { exact: true })).toHaveCount(0);
  });

  test("Deactivate (confirmed) and Activate: 'POS key deactivated' / 'POS key activated', and the till follows", async ({
    page,
    api,
    request,
  }) => {
    const posKey = await createPosKey(api, { name: uniqueName('Toggle') });
    const { card } = await accountWithCard(api);
    await openPosKeys(page, posKey.name);
    const status = rowFor(page, posKey.name).getByRole('cell').nth(2);
    await expect(status).toHaveText('Active');

    await rowAction(page, posKey.name, 'Deactivate');
    const confirm = page.getByRole('alertdialog', { name: 'Deactivate POS Key', exact: true });
    await expect(confirm).toContainText(posKey.name);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(status).toHaveText('Active');

    await rowAction(page, posKey.name, 'Deactivate');
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await expect(toast(page, 'POS key deactivated')).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(status).toHaveText('Inactive');
    expect(await posCardStatus(request, posKey.apiKey, card.number)).toBe(401);

    await page.getByRole('button', { name: `Actions for ${posKey.name}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Deactivate' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Activate', exact: true }).click();
    await expect(toast(page, 'POS key activated')).toBeVisible();
    await expect(status).toHaveText('Active');
    expect(await posCardStatus(request, posKey.apiKey, card.number)).toBe(200);
  });

  test("'Failed to update POS key' and 'Failed to load POS keys'", async ({ page, api }) => {
    const posKey = await createPosKey(api, { name: uniqueName('Fail'), status: 'inactive' });
    await openPosKeys(page, posKey.name);
    await page.route(`**/api/v1/pos-keys/${posKey.id}`, failWith(500, 'Database unavailable'));
    await rowAction(page, posKey.name, 'Activate');
    await expect(toast(page, 'Failed to update POS key')).toBeVisible();
    await expect(rowFor(page, posKey.name).getByRole('cell').nth(2)).toHaveText('Inactive');

    await page.route('**/api/v1/pos-keys?*', failWith(403, 'Forbidden', 'FORBIDDEN'));
    await page.reload();
    await expect(toast(page, 'Failed to load POS keys')).toBeVisible();
    await expect(table(page)).toContainText('Failed to load POS keys');
  });

  test('fits a 390 px screen, the Add POS Key dialog included', async ({ page, api }) => {
    const posKey = await createPosKey(api, { name: uniqueName('Narrow') });
    await page.setViewportSize({ width: 390, height: 844 });
    await openPosKeys(page, posKey.name);
    await expect(rowFor(page, posKey.name)).toBeVisible();
    expect(await fitsViewport(page)).toBe(true);
    const add = await openAddDialog(page);
    const box = await add.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  });
});

test('a MANAGER adds and toggles keys but cannot view them', async ({ page, api, signIn, createUser }) => {
  const posKey = await createPosKey(api, { name: uniqueName('Managed') });
  await signIn(page, await createUser('MANAGER'));
  await openPosKeys(page, posKey.name);
  await expect(page.getByRole('button', { name: 'Add POS Key' })).toBeVisible();
  await page.getByRole('button', { name: `Actions for ${posKey.name}` }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Deactivate']);
});

test('a VIEWER reads the list and changes nothing', async ({ page, api, signIn, createUser }) => {
  const posKey = await createPosKey(api, { name: uniqueName('Viewed') });
  await signIn(page, await createUser('VIEWER'));
  await openPosKeys(page, posKey.name);
  await expect(rowFor(page, posKey.name)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add POS Key' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Actions for ${posKey.name}` })).toHaveCount(0);
  await expect(table(page).getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
});
