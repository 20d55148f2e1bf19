import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { expect, test, toast, uniqueName } from './support/fixtures';
import { addPoints, createAccount, fitsViewport, getAccount, issueCard } from './support/loyalty-api';

// Issue 11 / PROGRAMME-API §4: 'Export CSV' on a list, a member's Export Data and Erase Member.
test.describe.configure({ mode: 'parallel' });

const DAY = /\d{4}-\d{2}-\d{2}/;

async function downloaded(download: Download): Promise<string> {
  return readFile((await download.path()) as string, 'utf8');
}

/** An account with a card and two manual accruals whose reasons need CSV quoting and formula defusing. */
async function member(api: Parameters<typeof createAccount>[0]) {
  const account = await createAccount(api, uniqueName('export'));
  const card = await issueCard(api, account.id);
  await addPoints(api, account.id, 12.5, 'Goodwill, "thanks"');
  await addPoints(api, account.id, 3, '=HYPERLINK("x")');
  return { account, card };
}

async function showAccount(page: Page, clientId: string) {
  await page.goto('/accounts');
  await page.getByLabel('Search accounts').fill(clientId);
  await expect(page.getByRole('table', { name: 'Accounts' }).getByRole('row')).toHaveCount(2);
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('Export CSV downloads every row of the filtered list, named after the screen and the day', async ({
  page,
  api,
}) => {
  const { card } = await member(api);
  await page.goto('/operations');
  await page.getByLabel('Search operations').fill(card.number);
  await expect(page.getByRole('table', { name: 'Operations' }).getByRole('row')).toHaveCount(3);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^operations-${DAY.source}\\.csv$`));
  const csv = await downloaded(download);
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    'id,operationId,type,points,status,accountId,cardNumber,posId,posName,posAddress,createdAt,meta',
  );
  expect(lines).toHaveLength(3);
  for (const line of lines.slice(1)) expect(line).toContain(`,${card.number},`);
  // Newest first, as the screen shows; quotes doubled inside a quoted cell.
  expect(lines[1]).toContain(',adjustment,3.00,');
  expect(lines[2]).toContain('""reason"":""Goodwill, \\""thanks\\""""');
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
});

test('Export Data downloads the member as one JSON document', async ({ page, api }) => {
  const { account } = await member(api);
  await showAccount(page, account.clientId);
  await page.getByRole('button', { name: `Actions for ${account.clientId}`, exact: true }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export Data', exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^member-${account.clientId}-${DAY.source}\\.json$`),
  );
  const document = JSON.parse(await downloaded(download));
  expect(document.account).toMatchObject({ id: account.id, clientId: account.clientId, balance: 15.5 });
  expect(document.cards).toHaveLength(1);
  expect(document.operations).toHaveLength(2);
  // Its points lots too (PROGRAMME-API §4), newest first: this asserted an empty list while the export left
  // them out.
  expect(document.lots.map((l: { points: number; remaining: number }) => [l.points, l.remaining])).toEqual([
    [3, 3],
    [12.5, 12.5],
  ]);
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`Erase Member at ${viewport.width} px: type the client ID, keyboard only, toast, the row is erased`, async ({
    page,
    api,
  }) => {
    await page.setViewportSize(viewport);
    const { account } = await member(api);
    await showAccount(page, account.clientId);
    const actions = page.getByRole('button', { name: `Actions for ${account.clientId}`, exact: true });

    // Escape closes without erasing, and focus goes back to the row's menu button.
    await actions.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Erase Member', exact: true }).press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Erase Member' });
    await expect(dialog).toBeVisible();
    const field = dialog.getByLabel('Type the client ID to confirm');
    await expect(field).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(actions).toBeFocused();

    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Erase Member', exact: true }).press('Enter');
    await expect(field).toBeFocused();
    expect(await fitsViewport(page)).toBe(true);
    const submit = dialog.getByRole('button', { name: 'Erase Member' });
    await expect(submit).toBeDisabled();
    await page.keyboard.type(account.clientId.toUpperCase());
    await expect(submit).toBeDisabled();
    await field.fill('');
    await page.keyboard.type(account.clientId);
    await expect(submit).toBeEnabled();
    await page.keyboard.press('Enter');

    const erased = `erased-${account.id.slice(0, 8)}`;
    await expect(toast(page, `Member erased: the account is now ${erased}`)).toBeVisible();
    await expect(dialog).toBeHidden();
    // The search still asks for the old client ID: nothing answers to it any more.
    await expect(page.getByText('No results.')).toBeVisible();
    expect((await getAccount(api, account.id)).clientId).toBe(erased);
  });
}
