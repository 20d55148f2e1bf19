import type { Page } from '@playwright/test';
import { chooseOption, expect, expectJson, test, USERS_PATH, uniqueName } from './support/fixtures';

// Spec section 2 "Audit Log", 3 "Audit entry", 7 (load failure shows sample data).
test.describe.configure({ mode: 'parallel' });

const table = (page: Page) => page.getByRole('table', { name: 'Audit logs' });
const dataRows = (page: Page) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('checkbox', { name: 'Select row' }) });
const rowWith = (page: Page, text: string) => dataRows(page).filter({ hasText: text });
const createdMessage = (username: string, role: string) => `Created user '${username}' with role ${role}`;

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('a change made through the API shows up with its columns', async ({ page, createUser }) => {
  const user = await createUser('VIEWER');
  await page.goto('/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit Logs' })).toBeVisible();
  await expect(table(page).getByRole('columnheader')).toHaveText([
    '',
    'Time',
    'User',
    'Type',
    'Message',
    'Target ID',
    'Details',
  ]);

  await page.getByLabel('Search audit logs').fill(user.username);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).getByRole('cell')).toHaveText([
    '',
    /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/,
    'admin',
    'User',
    createdMessage(user.username, 'VIEWER'),
    user.id,
    'View Details',
  ]);
});

test('filters by user and by type, and searches message and username', async ({
  page,
  apiAs,
  createUser,
}) => {
  // A second admin whose whole history is known: one sign-in, one user created.
  const actor = await createUser('ADMIN');
  const actorApi = await apiAs(actor);
  const created = uniqueName('made-by');
  await expectJson(
    await actorApi.post(USERS_PATH, {
      data: { username: created, password: 'e2e-password-1', role: 'MANAGER' },
    }),
  );
  await page.goto('/audit');

  await page.getByLabel('Filter by user').fill(actor.username);
  await expect(dataRows(page)).toHaveCount(2);
  await expect(rowWith(page, createdMessage(created, 'MANAGER'))).toBeVisible();
  await expect(rowWith(page, 'Signed in from')).toBeVisible();

  const typeFilter = page.getByLabel('Filter by type');
  await chooseOption(page, typeFilter, 'User');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowWith(page, createdMessage(created, 'MANAGER'))).toBeVisible();
  await chooseOption(page, typeFilter, 'Sign-in');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowWith(page, 'Signed in from')).toContainText(actor.username);
  await chooseOption(page, typeFilter, 'All types');
  await page.getByLabel('Filter by user').fill('');

  // Search matches the message ("Created user 'x'") and the acting username.
  await page.getByLabel('Search audit logs').fill(created);
  await expect(dataRows(page)).toHaveCount(1);
  await page.getByLabel('Search audit logs').fill(actor.username);
  // The admin created the actor (message), the actor signed in and created a user (username).
  await expect(dataRows(page)).toHaveCount(3);
  await expect(rowWith(page, createdMessage(actor.username, 'ADMIN'))).toContainText('admin');
});

test('a link to one target lists its entries under a filter that can be removed', async ({
  page,
  createUser,
}) => {
  const user = await createUser('VIEWER');
  await page.goto(`/audit?targetId=${user.id}`);
  const filter = page.getByRole('button', { name: `Remove filter Target ID ${user.id}` });
  await expect(page.getByText(`Target ID: ${user.id}`)).toBeVisible();
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).getByRole('cell').nth(4)).toHaveText(createdMessage(user.username, 'VIEWER'));

  await filter.click();
  await expect(filter).toBeHidden();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(dataRows(page).nth(1)).toBeVisible();
});

test('View Details shows the before and after JSON, never a password', async ({ page, api, createUser }) => {
  const user = await createUser('MANAGER', { email: 'details@example.com', fullName: 'Grace Hopper' });
  expect((await api.delete(`${USERS_PATH}/${user.id}`)).status()).toBe(204);
  await page.goto('/audit');
  await page.getByLabel('Search audit logs').fill(user.username);
  await expect(dataRows(page)).toHaveCount(2);

  await rowWith(page, 'Created user').getByRole('button', { name: 'View Details' }).click();
  let dialog = page.getByRole('dialog', { name: 'Audit Entry Details' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Before' })).toContainText('No data');
  const after = dialog.getByRole('region', { name: 'After' });
  await expect(after).toContainText(`"username": "${user.username}"`);
  await expect(after).toContainText('"email": "details@example.com"');
  await expect(after).toContainText('"fullName": "Grace Hopper"');
  await expect(after).toContainText('"role": "MANAGER"');
  await expect(after).toContainText(`"id": "${user.id}"`);
  await expect(dialog).not.toContainText(/password|argon2/i);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await rowWith(page, 'Deleted user').getByRole('button', { name: 'View Details' }).click();
  dialog = page.getByRole('dialog', { name: 'Audit Entry Details' });
  await expect(dialog.getByRole('region', { name: 'Before' })).toContainText(
    `"username": "${user.username}"`,
  );
  await expect(dialog.getByRole('region', { name: 'After' })).toContainText('No data');
  await expect(dialog).not.toContainText(/password|argon2/i);
});

/** A new user's one audit entry, found by searching the log for its name. */
async function showNewUsersEntry(page: Page, createUser: (role: 'VIEWER') => Promise<{ username: string }>) {
  const user = await createUser('VIEWER');
  await page.goto('/audit');
  await page.getByLabel('Search audit logs').fill(user.username);
  await expect(dataRows(page)).toHaveCount(1);
}

test('closing View Details, by Escape or by its Close button, gives focus back to the button', async ({
  page,
  createUser,
}) => {
  await showNewUsersEntry(page, createUser);
  const details = dataRows(page).getByRole('button', { name: 'View Details' });
  const dialog = page.getByRole('dialog', { name: 'Audit Entry Details' });

  await details.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Opened without a Radix Trigger, it used to leave focus on <body>.
  await expect(details).toBeFocused();

  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(details).toBeFocused();
});

test('the View Details button shows whole in its column, not cut at its right edge', async ({
  page,
  createUser,
}) => {
  await showNewUsersEntry(page, createUser);
  const cell = dataRows(page).getByRole('cell').last();
  await expect(cell.getByRole('button', { name: 'View Details' })).toBeVisible();
  expect(await cell.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
});

test('when the list call fails, sample data is shown under a banner', async ({ page }) => {
  await page.route(
    (url) => url.pathname === '/api/v1/audit',
    (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: 500, message: 'Internal server error', code: 'INTERNAL_ERROR' }),
      }),
  );
  await page.goto('/audit');
  const banner = page.getByRole('alert').filter({ hasText: 'Sample data' });
  await expect(banner).toContainText('Sample data — the audit log could not be loaded');
  await expect(banner).toContainText('Server error. Please try again later.');
  await expect(rowWith(page, 'Created user jane.doe')).toBeVisible();

  await page.unrouteAll();
  await banner.getByRole('button', { name: 'Retry' }).click();
  await expect(banner).toBeHidden();
  await expect(rowWith(page, 'Created user jane.doe')).toHaveCount(0);
  await expect(dataRows(page).first()).toBeVisible();
});
