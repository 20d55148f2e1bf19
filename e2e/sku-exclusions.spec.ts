import type { Ruleset } from '@loyalty/contracts';
import type { Page } from '@playwright/test';
import { chooseOption, expect, seenWith, test, toast, uniqueName } from './support/fixtures';
import {
  addExcludedSku,
  createRuleset,
  isoInDays,
  listExcludedSkus,
  listRulesets,
  topVersion,
} from './support/programme-api';

// Spec section 2 "SKU Exclusions", 5 "Add SKU exclusion", 7 (category load failure: empty list, silently;
// `category=` empty is '(No category)'), 8 toasts ('SKU added to exclusions', 'SKU removed from
// exclusions', 'Failed to load SKU exclusions'), 9 (the latest ruleset is the highest version).
// Only this file makes rulesets above the automatic versions, and its tests run one after another, so the
// newest of them is the latest ruleset while a test runs.

// Rows with data: not the skeleton rows of a load, nor the one row saying 'No results.'.
const DATA_ROWS = 'tbody tr:not([data-testid=skeleton-row]):not(:has(td[colspan]))';
const table = (page: Page) => page.getByRole('table', { name: 'Excluded SKUs' });
const dataRows = (page: Page) => table(page).locator(DATA_ROWS);
const rowFor = (page: Page, sku: string) =>
  dataRows(page).filter({ has: page.getByRole('cell', { name: sku, exact: true }) });
const chooser = (page: Page) => page.getByRole('combobox', { name: 'Ruleset' });
const categoryFilter = (page: Page) => page.getByRole('combobox', { name: 'Filter by category' });
const search = (page: Page, text: string) => page.getByLabel('Search SKUs').fill(text);
const badge = (page: Page) => page.getByTestId('ruleset-activity');

/** Opens the page with `ruleset` chosen (it is the latest when made with `topVersion`, else chosen here). */
async function openFor(page: Page, ruleset: Ruleset) {
  await page.goto('/sku-exclusions');
  // The first load fetches the screen's chunk and the rulesets: give a busy machine time.
  await expect(chooser(page)).toBeVisible({ timeout: 20_000 });
  if ((await chooser(page).textContent()) !== `Version ${ruleset.version}`) {
    await chooser(page).click();
    await page.getByRole('option', { name: new RegExp(`^Version ${ruleset.version}\\b`) }).click();
  }
  await expect(chooser(page)).toHaveText(`Version ${ruleset.version}`);
}

async function openAddSku(page: Page) {
  await page.getByRole('button', { name: 'Add SKU' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add SKU' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('the latest ruleset is preselected, listed as Version N, with an Active or Inactive badge', async ({
  page,
  api,
}) => {
  const latest = await createRuleset(api, { version: topVersion() });
  // The ruleset in force is 'Active'; make sure there is one.
  let [inForce] = (await listRulesets(api, { status: 'Active', sort: 'version,desc', size: 1 })).content;
  if (!inForce) inForce = await createRuleset(api, { activeFrom: isoInDays(-1) });
  const all = await listRulesets(api, { sort: 'version,desc' });
  expect(all.content[0]?.id).toBe(latest.id);

  await page.goto('/sku-exclusions');
  await expect(page.getByRole('heading', { level: 1, name: 'SKU Exclusions' })).toBeVisible();
  await expect(chooser(page)).toHaveText(`Version ${latest.version}`);
  await expect(badge(page)).toHaveText('Inactive');

  await chooser(page).click();
  const options = page.getByRole('option');
  await expect(options.first()).toHaveText(`Version ${latest.version}Inactive`);
  await expect(page.getByRole('option', { name: new RegExp(`^Version ${inForce.version}\\b`) })).toHaveText(
    `Version ${inForce.version}Active`,
  );
  await page.getByRole('option', { name: new RegExp(`^Version ${inForce.version}\\b`) }).click();
  await expect(chooser(page)).toHaveText(`Version ${inForce.version}`);
  await expect(badge(page)).toHaveText('Active');
  await expect(table(page).getByRole('columnheader')).toHaveText([
    'SKU',
    'Description',
    'Category',
    'Actions',
  ]);
});

test("Add SKU trims the values, lists the SKU and shows 'SKU added to exclusions'", async ({ page, api }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  const sku = uniqueName('SKU').toUpperCase();
  await openFor(page, ruleset);
  await expect(table(page)).toContainText('No results.');

  const dialog = await openAddSku(page);
  await expect(dialog.getByLabel('SKU')).toBeFocused();
  await dialog.getByLabel('SKU').fill(`  ${sku}  `);
  await dialog.getByLabel('Description').fill('  Gift card 50  ');
  await dialog.getByLabel('Category').fill('  Gift cards ');
  await dialog.getByRole('button', { name: 'Add SKU' }).click();

  await expect(toast(page, 'SKU added to exclusions')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowFor(page, sku).getByRole('cell')).toHaveText([sku, 'Gift card 50', 'Gift cards', 'Remove']);
  expect(await listExcludedSkus(api, ruleset.id)).toMatchObject([
    { sku, description: 'Gift card 50', category: 'Gift cards' },
  ]);
  // The new category is offered by the filter at once.
  await categoryFilter(page).click();
  await expect(page.getByRole('option', { name: 'Gift cards', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('Add SKU requires a SKU, closes on Escape, and is disabled while saving', async ({ page, api }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await openFor(page, ruleset);
  let dialog = await openAddSku(page);
  await dialog.getByLabel('SKU').fill('   ');
  await dialog.getByLabel('Description').fill('Only a description');
  await dialog.getByRole('button', { name: 'Add SKU' }).click();
  await expect(dialog.getByText('SKU is required', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('SKU')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/excluded-skus', async (route) => {
    if (route.request().method() === 'POST') await held;
    return route.fallback();
  });
  dialog = await openAddSku(page);
  await expect(dialog.getByLabel('SKU')).toHaveValue(''); // a closed dialog starts again empty
  await dialog.getByLabel('SKU').fill('SLOW-1');
  await dialog.getByRole('button', { name: 'Add SKU' }).click();
  await expect(dialog.getByRole('button', { name: 'Adding...' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  release();
  await expect(toast(page, 'SKU added to exclusions')).toBeVisible();
  await expect(rowFor(page, 'SLOW-1')).toBeVisible();
});

test('adding a SKU twice shows the conflict from the server', async ({ page, api }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await addExcludedSku(api, ruleset.id, { sku: 'DUP-1' });
  await openFor(page, ruleset);
  const dialog = await openAddSku(page);
  await dialog.getByLabel('SKU').fill('DUP-1');
  await dialog.getByRole('button', { name: 'Add SKU' }).click();
  // Spec section 8, fallback by HTTP status: 409 is 'Conflict' plus the message.
  await expect(
    toast(page, `Conflict: SKU 'DUP-1' is already excluded in ruleset version ${ruleset.version}`),
  ).toBeVisible();
  await expect(dialog).toBeVisible();
});

test("Remove asks first, then takes the SKU out and shows 'SKU removed from exclusions'", async ({
  page,
  api,
}) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await addExcludedSku(api, ruleset.id, { sku: 'KEEP-1', category: 'Tobacco' });
  await addExcludedSku(api, ruleset.id, { sku: 'GONE-1', category: 'Tobacco' });
  await openFor(page, ruleset);
  // Issue 16: Remove asks first, like every other change; Cancel keeps the SKU.
  await rowFor(page, 'GONE-1').getByRole('button', { name: 'Remove GONE-1' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove SKU' });
  await expect(confirm).toContainText('GONE-1');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(rowFor(page, 'GONE-1').getByRole('button', { name: 'Remove GONE-1' })).toBeFocused();
  expect((await listExcludedSkus(api, ruleset.id)).map((s) => s.sku).sort()).toEqual(['GONE-1', 'KEEP-1']);

  await rowFor(page, 'GONE-1').getByRole('button', { name: 'Remove GONE-1' }).click();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await rowFor(page, 'GONE-1').getByRole('button', { name: 'Remove GONE-1' }).click();
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(toast(page, 'SKU removed from exclusions')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(rowFor(page, 'GONE-1')).toHaveCount(0);
  await expect(rowFor(page, 'KEEP-1')).toBeVisible();
  expect((await listExcludedSkus(api, ruleset.id)).map((s) => s.sku)).toEqual(['KEEP-1']);

  // Removed by someone else while the question is open: it says so, closes, and the row goes.
  await rowFor(page, 'KEEP-1').getByRole('button', { name: 'Remove KEEP-1' }).click();
  await expect(confirm).toBeVisible();
  expect((await api.delete(`/api/v1/rulesets/${ruleset.id}/excluded-skus/KEEP-1`)).status()).toBe(204);
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(toast(page, 'Failed to remove SKU')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(rowFor(page, 'KEEP-1')).toHaveCount(0);
});

test('search covers sku, description and category; the category filter has All, (No category) and each one', async ({
  page,
  api,
}) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await addExcludedSku(api, ruleset.id, { sku: 'TOB-20', description: 'Cigarettes', category: 'Tobacco' });
  await addExcludedSku(api, ruleset.id, { sku: 'ALC-75', description: 'Red wine', category: 'Alcohol' });
  await addExcludedSku(api, ruleset.id, { sku: 'GIFT-50', description: 'Gift card', category: null });
  await openFor(page, ruleset);
  await expect(dataRows(page)).toHaveCount(3);
  await expect(rowFor(page, 'GIFT-50').getByRole('cell').nth(2)).toHaveText('—');

  await search(page, 'alc'); // sku
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, 'ALC-75')).toBeVisible();
  await search(page, 'cigar'); // description
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, 'TOB-20')).toBeVisible();
  await search(page, 'alcohol'); // category
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, 'ALC-75')).toBeVisible();
  await search(page, '');
  await expect(dataRows(page)).toHaveCount(3);

  await categoryFilter(page).click();
  await expect(page.getByRole('option')).toHaveText([
    'All categories',
    '(No category)',
    'Alcohol',
    'Tobacco',
  ]);
  await page.keyboard.press('Escape');
  const asked = page.waitForRequest(
    (r) => r.url().includes('/excluded-skus?') && /[?&]category=(&|$)/.test(r.url()),
  );
  await chooseOption(page, categoryFilter(page), '(No category)');
  await asked;
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, 'GIFT-50')).toBeVisible();
  await chooseOption(page, categoryFilter(page), 'Tobacco');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, 'TOB-20')).toBeVisible();
  await chooseOption(page, categoryFilter(page), 'All categories');
  await expect(dataRows(page)).toHaveCount(3);
});

test('a category load failure leaves the dropdown with its fixed choices, silently', async ({
  page,
  api,
}) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await addExcludedSku(api, ruleset.id, { sku: 'X-1', category: 'Snacks' });
  await page.route('**/excluded-skus-categories', (route) =>
    route.fulfill({ status: 400, contentType: 'application/json', body: '{"status":400,"message":"nope"}' }),
  );
  await openFor(page, ruleset);
  await expect(rowFor(page, 'X-1')).toBeVisible();
  await categoryFilter(page).click();
  await expect(page.getByRole('option')).toHaveText(['All categories', '(No category)']);
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
});

test("a list failure shows 'Failed to load SKU exclusions'", async ({ page, api }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await page.route('**/excluded-skus?**', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ status: 400, message: 'Exclusions are unavailable' }),
    }),
  );
  await page.goto('/sku-exclusions');
  await expect(chooser(page)).toHaveText(`Version ${ruleset.version}`);
  const failed = toast(page, 'Failed to load SKU exclusions');
  await expect(seenWith(failed, 'Exclusions are unavailable')).toBeVisible();
  await expect(table(page).getByRole('alert')).toContainText('Failed to load SKU exclusions');
});

test('a VIEWER sees the exclusions without Add SKU or Remove', async ({ page, api, signIn, createUser }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await addExcludedSku(api, ruleset.id, { sku: 'RO-1', description: 'Read only' });
  await signIn(page, await createUser('VIEWER'));
  await openFor(page, ruleset);
  await expect(rowFor(page, 'RO-1')).toBeVisible();
  await expect(table(page).getByRole('columnheader')).toHaveText(['SKU', 'Description', 'Category']);
  await expect(page.getByRole('button', { name: 'Add SKU' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
});

test('a MANAGER adds and removes SKUs', async ({ page, api, signIn, createUser }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await signIn(page, await createUser('MANAGER'));
  await openFor(page, ruleset);
  const dialog = await openAddSku(page);
  await dialog.getByLabel('SKU').fill('MGR-1');
  await dialog.getByRole('button', { name: 'Add SKU' }).click();
  await expect(toast(page, 'SKU added to exclusions')).toBeVisible();
  await rowFor(page, 'MGR-1').getByRole('button', { name: 'Remove MGR-1' }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove SKU' })
    .getByRole('button', { name: 'Remove', exact: true })
    .click();
  await expect(toast(page, 'SKU removed from exclusions')).toBeVisible();
  await expect(rowFor(page, 'MGR-1')).toHaveCount(0);
});

test('works at 390 px wide, the Add SKU dialog included', async ({ page, api }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  await addExcludedSku(api, ruleset.id, { sku: 'NARROW-1', description: 'A long description of a product' });
  await page.setViewportSize({ width: 390, height: 844 });
  await openFor(page, ruleset);
  await expect(rowFor(page, 'NARROW-1')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const dialog = await openAddSku(page);
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await expect(dialog.getByRole('button', { name: 'Add SKU' })).toBeInViewport();
});

test('at 390 px a 100-character category stays on screen in the category list', async ({ page, api }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  const category = uniqueName('category').padEnd(100, 'K');
  await addExcludedSku(api, ruleset.id, { sku: uniqueName('SKU'), category });
  await page.setViewportSize({ width: 390, height: 844 });
  await openFor(page, ruleset);
  await categoryFilter(page).click();
  await expect(page.getByRole('listbox')).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('option', { name: category })).toBeInViewport({ ratio: 1 });
  await page.getByRole('option', { name: category }).click();
  await expect(dataRows(page)).toHaveCount(1);
});

test('the Remove button shows whole in its column, not cut at its right edge', async ({ page, api }) => {
  const ruleset = await createRuleset(api, { version: topVersion() });
  const sku = uniqueName('SKU');
  await addExcludedSku(api, ruleset.id, { sku });
  await openFor(page, ruleset);
  const cell = rowFor(page, sku).getByRole('cell').last();
  await expect(cell.getByRole('button', { name: `Remove ${sku}` })).toBeVisible();
  expect(await cell.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
});
