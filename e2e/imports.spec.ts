import type { Page } from '@playwright/test';
import { expect, expectJson, test, uniqueName } from './support/fixtures';
import { fitsViewport } from './support/loyalty-api';

// PROGRAMME-API.md §4 in the console: the Import screen (members and bulk credits, a check then the import).
const SHOTS = `test-results/${process.env.E2E_PORT ?? 'default'}/imports`;

const fileInput = (page: Page) => page.locator('input[type="file"]');
const pick = (page: Page, name: string, text: string) =>
  fileInput(page).setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const counts = (page: Page, section: string) => page.getByRole('region', { name: section }).locator('dl');
const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

test('members: a check shows the errors by line, then an import with Skip invalid rows writes the rest', async ({
  page,
  signIn,
  api,
}) => {
  const tag = uniqueName('imp').toUpperCase();
  await signIn(page);
  await page.goto('/imports');
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check file' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  await pick(
    page,
    'members.csv',
    csv('clientId,cardNumber,points,reason', `${tag}-1,,25,Opening`, `${tag}-2,12ab,,`, `${tag}-3,,,`),
  );
  await expect(page.getByText('members.csv')).toBeVisible();
  await page.getByRole('button', { name: 'Check file' }).click();
  const check = page.getByRole('region', { name: 'Check report' });
  await expect(counts(page, 'Check report')).toContainText('Rows3');
  await expect(counts(page, 'Check report')).toContainText('Would create2');
  await expect(counts(page, 'Check report')).toContainText('Errors1');
  await expect(check.getByRole('row').nth(1)).toContainText(
    '3VALIDATION_ERRORcardNumber: must be 8 to 19 digits',
  );
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await expect(page.getByText('The file has errors')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/members-check.png`, fullPage: true });
  // Nothing was written by the check.
  const before = await expectJson<{ totalElements: number }>(await api.get(`/api/v1/accounts?search=${tag}`));
  expect(before.totalElements).toBe(0);

  await page.getByRole('checkbox', { name: 'Skip invalid rows' }).click();
  await expect(check).toBeHidden();
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(counts(page, 'Check report')).toContainText('Would create2');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const result = page.getByRole('region', { name: 'Import result' });
  await expect(page.getByRole('heading', { level: 2, name: 'Imported' })).toBeVisible();
  await expect(counts(page, 'Import result')).toContainText('Created2');
  await expect(result.getByRole('row').nth(1)).toContainText('3VALIDATION_ERROR');
  await page.screenshot({ path: `${SHOTS}/members-imported.png`, fullPage: true });
  const after = await expectJson<{ content: { clientId: string; balance: number }[] }>(
    await api.get(`/api/v1/accounts?search=${tag}&sort=clientId,asc`),
  );
  expect(after.content.map((a) => [a.clientId, a.balance])).toEqual([
    [`${tag}-1`, 25],
    [`${tag}-3`, 0],
  ]);

  await page.getByRole('link', { name: 'View the audit entry' }).click();
  await expect(page).toHaveURL('/audit?targetType=import');
  await expect(page.getByRole('table', { name: 'Audit logs' })).toContainText(
    'Imported members from CSV: 2 created',
  );
});

test('bulk credits: checked, imported, and the same file again is already imported', async ({
  page,
  signIn,
  api,
}) => {
  const tag = uniqueName('bulk').toUpperCase();
  const members = await api.post('/api/v1/imports/accounts', {
    headers: { 'content-type': 'text/csv' },
    data: csv('clientId', `${tag}-A`, `${tag}-B`),
  });
  expect((await expectJson<{ created: number }>(members)).created).toBe(2);
  await signIn(page);
  await page.goto('/imports');
  await page.getByRole('radio', { name: /Bulk credits/ }).check();
  const file = csv('clientId,points,reason', `${tag}-A,10,Goodwill`, `${tag}-B,2.5,Goodwill`);
  await pick(page, 'credits.csv', file);
  // By keyboard: each button disables itself while it runs, and focus goes on to what it brought (its
  // heading is read out), not to <body>.
  await page.getByRole('button', { name: 'Check file' }).focus();
  await page.keyboard.press('Enter');
  await expect(counts(page, 'Check report')).toContainText('Would create2');
  await expect(page.getByRole('heading', { level: 2, name: 'Check', exact: true })).toBeFocused();
  await expect(page.getByText('No errors: every row is valid.')).toBeVisible();
  await page.getByRole('button', { name: 'Import', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(counts(page, 'Import result')).toContainText('Created2');
  await expect(page.getByRole('heading', { level: 2, name: 'Imported' })).toBeFocused();

  // The same file again: the check answers the first import, and nothing is credited twice.
  await pick(page, 'credits.csv', file);
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Already imported' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  const accounts = await expectJson<{ content: { balance: number }[] }>(
    await api.get(`/api/v1/accounts?search=${tag}&sort=clientId,asc`),
  );
  expect(accounts.content.map((a) => a.balance)).toEqual([10, 2.5]);
});

test('bulk credits: the same rows saved again are a new file; the check warns and Import waits for a confirmation', async ({
  page,
  signIn,
  api,
}) => {
  const tag = uniqueName('resave').toUpperCase();
  const members = await api.post('/api/v1/imports/accounts', {
    headers: { 'content-type': 'text/csv' },
    data: csv('clientId', `${tag}-A`),
  });
  expect((await expectJson<{ created: number }>(members)).created).toBe(1);
  const first = await api.post('/api/v1/imports/accruals', {
    headers: { 'content-type': 'text/csv' },
    data: csv('clientId,points,reason', `${tag}-A,7,Goodwill`),
  });
  expect((await expectJson<{ created: number }>(first)).created).toBe(1);

  await signIn(page);
  await page.goto('/imports');
  await page.getByRole('radio', { name: /Bulk credits/ }).check();
  await expect(page.getByText('The same file sent again credits nothing')).toBeVisible();
  // As a spreadsheet saves it again: a byte order mark, CRLF, 7 as 7.00, a line of commas.
  await pick(page, 'credits.csv', `\uFEFFclientId,points,reason\r\n${tag}-A,7.00,Goodwill\r\n,,\r\n`);
  await page.getByRole('button', { name: 'Check file' }).focus();
  await page.keyboard.press('Enter');
  await expect(counts(page, 'Check report')).toContainText('Would create1');
  const heading = page.getByRole('heading', { level: 2, name: 'Check', exact: true });
  await expect(heading).toBeFocused();
  await expect(heading).toHaveAccessibleDescription(/These rows were already credited by the import of /);
  await expect(page.getByText(/^These rows were already credited by the import of .+\.$/)).toBeVisible();
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  await expect(importButton).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/credits-already-credited.png`, fullPage: true });

  // By keyboard: the confirmation is a checkbox, and Import follows it.
  const again = page.getByRole('checkbox', { name: 'Credit these rows again' });
  await again.focus();
  await page.keyboard.press('Space');
  await expect(again).toBeChecked();
  await expect(importButton).toBeEnabled();
  await page.keyboard.press('Space');
  await expect(importButton).toBeDisabled();
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(importButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(counts(page, 'Import result')).toContainText('Created1');
  await expect(page.getByText('These rows were already credited')).toBeHidden();
  const accounts = await expectJson<{ content: { balance: number }[] }>(
    await api.get(`/api/v1/accounts?search=${tag}`),
  );
  expect(accounts.content.map((a) => a.balance)).toEqual([14]);
});

test.describe('at 390 px in the dark theme', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a file that is not the expected CSV is refused in place with its line; keyboard only', async ({
    page,
    signIn,
  }) => {
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signIn(page);
    await page.goto('/imports');
    await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
    // The kind is a radio group and the file zone a real file input: both reachable by keyboard.
    await page.getByRole('radio', { name: /Members/ }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('radio', { name: /Bulk credits/ })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(fileInput(page)).toBeFocused();
    await pick(page, 'wrong.csv', csv('name,amount', 'A,1'));
    await page.getByRole('button', { name: 'Check file' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toHaveText(/^Line 1: unknown column name/);
    // The button disabled itself while it ran: focus is back on it, not on <body>.
    await expect(page.getByRole('button', { name: 'Check file' })).toBeFocused();
    expect(await fitsViewport(page)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/refused-390-dark.png`, fullPage: true });
  });
});

test("a proxy's 413 page in front of the server is told in words, not as its status line", async ({
  page,
  signIn,
}) => {
  await signIn(page);
  // nginx's own answer above its client_max_body_size (1 MB by default): HTML, not the API's JSON error.
  await page.route('**/api/v1/imports/accounts?*', (route) =>
    route.fulfill({
      status: 413,
      contentType: 'text/html',
      body: '<html><h1>413 Request Entity Too Large</h1></html>',
    }),
  );
  await page.goto('/imports');
  await pick(page, 'members.csv', csv('clientId', 'proxy-1'));
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'too large' })).toHaveText(
    'Request body is too large.',
  );
});

test('a viewer is not offered Import and meets the wall at its URL', async ({ page, signIn, createUser }) => {
  await signIn(page, await createUser('VIEWER'));
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Accounts' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Import', exact: true })).toHaveCount(0);
  await page.goto('/imports');
  await expect(page.getByText('You do not have permission to import data.')).toBeVisible();
});
