import type { Page } from '@playwright/test';
import {
  apiLogin,
  chooseOption,
  DEFAULT_PASSWORD,
  expect,
  expectJson,
  test,
  toast,
  USERS_PATH,
  uniqueName,
} from './support/fixtures';
import { failWith } from './support/loyalty-api';

// Spec section 2 "User Management" and "Generic data table", 5 "Create user", 8 screen toasts.
test.describe.configure({ mode: 'parallel' });

// Rows with data: not the skeleton rows of a load, nor the one row saying 'No results.'.
const DATA_ROWS = 'tbody tr:not([data-testid=skeleton-row]):not(:has(td[colspan]))';
const table = (page: Page) => page.getByRole('table', { name: 'Users' });
const dataRows = (page: Page) => table(page).locator(DATA_ROWS);
const rowFor = (page: Page, username: string) =>
  dataRows(page).filter({ has: page.getByRole('cell', { name: username, exact: true }) });
const search = (page: Page, text: string) => page.getByLabel('Search users').fill(text);
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;

async function openAddUser(page: Page) {
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.beforeEach(async ({ page, signIn }) => {
  // Tests that need another user sign in again themselves; the last seeded session wins.
  await signIn(page);
});

test('lists users with the spec columns, the admin, and Not set / Never for empty values', async ({
  page,
  createUser,
}) => {
  const user = await createUser('VIEWER');
  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
  await expect(table(page).getByRole('columnheader')).toHaveText([
    'Username',
    'Full Name',
    'Email',
    'Role',
    'Created',
    'Last Login',
    'Actions',
  ]);

  await search(page, 'admin');
  await expect(rowFor(page, 'admin')).toContainText('Administrator');

  await search(page, user.username);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, user.username).getByRole('cell')).toHaveText([
    user.username,
    'Not set',
    'Not set',
    'Viewer',
    DATE,
    'Never',
    '',
  ]);
  // No bulk action on users (issue 16): no selection checkboxes and no selected-row count.
  await expect(table(page).getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByText(/rows? selected/)).toHaveCount(0);
});

test('Add User creates a user who can sign in at once', async ({ page, request }) => {
  const username = uniqueName('new');
  await page.goto('/users');
  const dialog = await openAddUser(page);
  await expect(dialog.getByLabel('Role')).toHaveText('Viewer'); // the default role
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await dialog.getByLabel('Email').fill(`${username}@example.com`);
  await dialog.getByLabel('Full Name').fill('Ada Lovelace');
  await chooseOption(page, dialog.getByLabel('Role'), 'Manager');
  await dialog.getByRole('button', { name: 'Create User' }).click();

  await expect(toast(page, 'User created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await search(page, username);
  await expect(rowFor(page, username).getByRole('cell')).toHaveText([
    username,
    'Ada Lovelace',
    `${username}@example.com`,
    'Manager',
    DATE,
    'Never',
    '',
  ]);
  const session = await apiLogin(request, { username, password: DEFAULT_PASSWORD });
  expect(session.token).toBeTruthy();
});

test('blank username or password is refused before anything is sent', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().endsWith(USERS_PATH) && posts.push(r.url()));
  await page.goto('/users');
  const dialog = await openAddUser(page);
  const message = dialog.getByText('Username and password are required', { exact: true });

  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(message).toBeVisible();

  await dialog.getByLabel('Username').fill(uniqueName('blank'));
  await dialog.getByLabel('Password').fill('     ');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(message).toBeVisible();

  await dialog.getByLabel('Username').fill('   ');
  await dialog.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(message).toBeVisible();
  await expect(dialog).toBeVisible();
  expect(posts).toEqual([]);
});

test('the blank-fields message is said once, above the fields, and both blank fields are marked invalid', async ({
  page,
}) => {
  await page.goto('/users');
  const dialog = await openAddUser(page);
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Username and password are required');
  await expect(dialog.getByText('Username and password are required', { exact: true })).toHaveCount(1);
  await expect(dialog.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Email')).not.toHaveAttribute('aria-invalid');
  // Filling one field leaves the message (the other is still blank) and clears that field's mark.
  await dialog.getByLabel('Username').fill(uniqueName('half'));
  await expect(dialog.getByLabel('Username')).not.toHaveAttribute('aria-invalid');
  await expect(dialog.getByRole('alert')).toHaveText('Username and password are required');
  await expect(dialog.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
});

test('an invalid email is refused with the generic e-mail message', async ({ page }) => {
  await page.goto('/users');
  const dialog = await openAddUser(page);
  await dialog.getByLabel('Username').fill(uniqueName('mail'));
  await dialog.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(dialog.getByText('Please enter a valid email address', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
});

test('the contract checks password length and username characters before anything is sent', async ({
  page,
}) => {
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().endsWith(USERS_PATH) && posts.push(r.url()));
  await page.goto('/users');
  const dialog = await openAddUser(page);
  await dialog.getByLabel('Username').fill('has space');
  await dialog.getByLabel('Password').fill('short');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(
    dialog.getByText('Username may contain letters, digits and . _ @ - only', { exact: true }),
  ).toBeVisible();
  await expect(dialog.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Username')).toBeFocused();
  await expect(dialog.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  // Correcting a field clears its message as you type.
  await dialog.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await expect(dialog.getByText('Password must be at least 8 characters', { exact: true })).toBeHidden();
  expect(posts).toEqual([]);
});

test('a server validation error shows under the field and in the failure toast, once', async ({ page }) => {
  await page.goto('/users');
  const dialog = await openAddUser(page);
  await dialog.getByLabel('Username').fill(uniqueName('short'));
  await dialog.getByLabel('Password').fill(DEFAULT_PASSWORD);
  // The browser now refuses a short password itself; send one anyway so the real server answers 400.
  await page.route(`**${USERS_PATH}`, (route) =>
    route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), password: 'short' }) }),
  );
  await dialog.getByRole('button', { name: 'Create User' }).click();

  const failure = toast(page, 'Failed to create user');
  await expect(failure).toBeVisible();
  // The message once, without the server's field path ('password: …').
  await expect(failure.locator('[data-description]')).toHaveText('Password must be at least 8 characters');
  await expect(dialog.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Password')).toBeFocused();
  await expect(dialog).toBeVisible();
});

test("a load failure: 'Failed to load users' in the toast and in the table", async ({ page }) => {
  await page.route(`**${USERS_PATH}?*`, failWith(500, 'boom'));
  await page.goto('/users');
  await expect(toast(page, 'Failed to load users')).toBeVisible();
  await expect(table(page).getByRole('alert')).toContainText('Failed to load users');
});

test('a duplicate username fails with the server message', async ({ page, createUser }) => {
  const existing = await createUser('VIEWER');
  await page.goto('/users');
  const dialog = await openAddUser(page);
  await dialog.getByLabel('Username').fill(existing.username);
  await dialog.getByLabel('Password').fill(DEFAULT_PASSWORD);
  await dialog.getByRole('button', { name: 'Create User' }).click();

  const failure = toast(page, 'Failed to create user');
  await expect(failure).toBeVisible();
  await expect(failure.locator('[data-description]')).toHaveText(
    `Username '${existing.username}' already exists`,
  );
  await expect(dialog).toBeVisible();
});

test('the role filter and the search narrow the list on the server', async ({ page, createUser }) => {
  const team = uniqueName('team');
  const boss = await createUser('MANAGER', { username: `${team}-boss` });
  const clerk = await createUser('VIEWER', { username: `${team}-clerk`, email: `clerk-${team}@example.org` });
  await page.goto('/users');

  await search(page, team);
  await expect(dataRows(page)).toHaveCount(2);
  const roleFilter = page.getByLabel('Filter by role');
  await chooseOption(page, roleFilter, 'Manager');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, boss.username)).toBeVisible();
  await chooseOption(page, roleFilter, 'Viewer');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, clerk.username)).toBeVisible();
  await chooseOption(page, roleFilter, 'Administrator');
  await expect(page.getByText('No results.', { exact: true })).toBeVisible();
  await chooseOption(page, roleFilter, 'All roles');
  await expect(dataRows(page)).toHaveCount(2);

  // Search covers the email as well as the username.
  await search(page, `clerk-${team}@example`);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, clerk.username)).toBeVisible();
});

test('deleting a user someone else deleted meanwhile: the failure toast, and the row goes', async ({
  page,
  api,
  createUser,
}) => {
  const user = await createUser('VIEWER');
  await page.goto('/users');
  await search(page, user.username);
  await page.getByRole('button', { name: `Actions for ${user.username}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete User', exact: true });
  await expect(confirm).toBeVisible();
  expect((await api.delete(`${USERS_PATH}/${user.id}`)).status()).toBe(204);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Failed to delete user')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(rowFor(page, user.username)).toHaveCount(0);
});

test('deleting a user asks first, then removes the row', async ({ page, api, createUser }) => {
  const user = await createUser('MANAGER');
  await page.goto('/users');
  await search(page, user.username);
  await page.getByRole('button', { name: `Actions for ${user.username}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();

  const confirm = page.getByRole('alertdialog', { name: 'Delete User', exact: true });
  await expect(confirm).toContainText('Are you sure you want to delete this user?');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();

  await expect(toast(page, 'User deleted successfully')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(rowFor(page, user.username)).toHaveCount(0);
  await expect(page.getByText('No results.', { exact: true })).toBeVisible();
  const left = await expectJson<{ totalElements: number }>(
    await api.get(USERS_PATH, { params: { search: user.username } }),
  );
  expect(left.totalElements).toBe(0);
});

test('your own row offers no Delete; the server refuses it anyway', async ({
  page,
  signIn,
  createUser,
  apiAs,
}) => {
  const me = await createUser('ADMIN');
  const other = await createUser('VIEWER', { username: `${me.username}-other` });
  await signIn(page, me);
  await page.goto('/users');
  await search(page, me.username);
  await page.getByRole('button', { name: `Actions for ${me.username}`, exact: true }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: 'Signed in as this user' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: `Actions for ${other.username}`, exact: true }).click();
  await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  await page.keyboard.press('Escape');

  const mine = await apiAs(me);
  const refused = await mine.delete(`${USERS_PATH}/${me.id}`);
  expect(refused.status()).toBe(409);
  expect((await refused.json()).message).toBe('You cannot delete your own account');
  await expect(rowFor(page, me.username)).toBeVisible();
});

test('Escape closes the Add User dialog and discards what was typed', async ({ page }) => {
  await page.goto('/users');
  let dialog = await openAddUser(page);
  await dialog.getByLabel('Username').fill('typed-then-dropped');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  dialog = await openAddUser(page);
  await expect(dialog.getByLabel('Username')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('a viewer sees the permission state and no Add User', async ({ page, signIn, createUser }) => {
  const viewer = await createUser('VIEWER');
  await signIn(page, viewer);
  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
  await expect(page.getByText('You do not have permission to view users.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
  await expect(table(page)).toHaveCount(0);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
});

test('Unlock sign-in clears the failed attempts of a user, after confirming, and is audited', async ({
  page,
  request,
  api,
  createUser,
}) => {
  // The browser tests run with high sign-in limits (support/env.ts), so the count cleared is what shows it.
  const user = await createUser('VIEWER');
  for (let i = 0; i < 2; i++) {
    const failed = await request.post('/auth/api/v1/login', {
      data: { username: user.username, password: 'wrong-password' },
    });
    expect(failed.status()).toBe(401);
  }
  await page.goto('/users');
  await search(page, user.username);
  await page.getByRole('button', { name: `Actions for ${user.username}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Unlock sign-in' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Unlock Sign-In', exact: true });
  await expect(confirm).toContainText(user.username);
  await confirm.getByRole('button', { name: 'Unlock' }).click();
  await expect(toast(page, `Sign-in unlocked for ${user.username}`)).toBeVisible();
  await expect(confirm).toBeHidden();
  const audit = await expectJson<{ content: { message: string }[] }>(
    await api.get('/api/v1/audit', { params: { targetType: 'user', targetId: user.id } }),
  );
  expect(audit.content.map((e) => e.message)).toContain(
    `Unlocked sign-in for '${user.username}' (2 failed attempts cleared)`,
  );
  const session = await apiLogin(request, { username: user.username, password: DEFAULT_PASSWORD });
  expect(session.token).toBeTruthy();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a 100-character username wraps inside the Delete and Unlock dialogs instead of widening them', async ({
    page,
    createUser,
  }) => {
    const user = await createUser('VIEWER', { username: uniqueName('long').padEnd(100, 'x') });
    await page.goto('/users');
    await search(page, user.username);
    for (const [item, title] of [
      ['Unlock sign-in', 'Unlock Sign-In'],
      ['Delete', 'Delete User'],
    ] as const) {
      await page.getByRole('button', { name: `Actions for ${user.username}`, exact: true }).click();
      await page.getByRole('menuitem', { name: item }).click();
      const confirm = page.getByRole('alertdialog', { name: title, exact: true });
      await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });
      // Nothing inside the dialog scrolls sideways: the name breaks across lines.
      expect(await confirm.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
      await page.keyboard.press('Escape');
      await expect(confirm).toBeHidden();
    }
  });
});

test('at 1280 px a long email shows whole (on two lines) rather than cut, beside a fixed Full Name', async ({
  page,
  createUser,
}) => {
  const username = uniqueName('long-mail');
  // A realistic long address, fixed (addresses need not be unique): where a random part fell decided the breaks.
  const email = 'alexandra.richardson@harbour-mall.example';
  await createUser('MANAGER', { username, email, fullName: 'Alexandra Richardson' });
  await page.goto('/users');
  await page.getByLabel('Search users').fill(username);
  const table = page.getByRole('table', { name: 'Users' });
  // The search's answer: the page of every user before it may be taller and narrow the table by a scroll bar.
  await expect(table.locator('tbody tr')).toHaveCount(1);
  const row = table.getByRole('row').filter({ hasText: username });
  await expect(row).toHaveCount(1);
  // Email had the same width as Full Name and cut the address at its edge ('alexandra.richar…').
  const cells = row.getByRole('cell');
  for (const [index, text] of [
    [1, 'Alexandra Richardson'],
    [2, email],
  ] as const) {
    await expect(cells.nth(index)).toHaveText(text);
    const shape = () =>
      cells.nth(index).evaluate((td) => {
        const value = td.firstElementChild ?? td;
        return {
          cut: td.scrollWidth > td.clientWidth || value.scrollHeight > value.clientHeight + 1,
          title: value.getAttribute('title'),
        };
      });
    // Polled: the layout settles once the longer list before the search has gone (and its scroll bar).
    await expect.poll(shape).toEqual({ cut: false, title: text });
  }
  await expect(page.getByTestId('scroll-hint')).toHaveCount(0);
});
