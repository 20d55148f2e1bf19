import type { Page } from '@playwright/test';
import { axeScan } from './support/axe';
import { expect, expectJson, seenWith, test, toast, uniqueName } from './support/fixtures';
import { failWith, holdRequests } from './support/loyalty-api';
import {
  accrualWithReceipt,
  createPosKey,
  ensureRulesetInForce,
  posAccrual,
} from './support/pos-api-helpers';
import { accountWithCard, addExcludedSku, listRulesets } from './support/programme-api';

// Spec section 2 "Operations History" → View Receipt, 3 "Receipt detail", 8 'Failed to load receipt
// details', 9 (en-US numbers, up to 2 decimals).
test.describe.configure({ mode: 'parallel' });

const DATE_TIME = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/;
const en = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const receiptDialog = (page: Page) => page.getByRole('dialog', { name: 'Receipt Details' });

async function openReceipt(page: Page, operationId: string) {
  await page.goto('/operations');
  await page.getByLabel('Search operations').fill(operationId);
  const row = page
    .getByRole('table', { name: 'Operations' })
    .getByRole('row')
    .filter({ hasText: operationId })
    .first();
  await row.getByRole('button', { name: 'View Receipt' }).click();
  return receiptDialog(page);
}

/** A fake receipt answer, for the display rules the server's data cannot reach (POS fallbacks). */
function fakeReceipt(pos: { posName: string | null; posAddress: string | null }) {
  return {
    receipt: {
      receiptId: 'R-FAKE-1',
      posId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      totalAmount: 1234.5,
      totalDiscount: 0,
      createdAt: '2026-03-04T15:06:00.000Z',
      purchasedAt: '2026-03-04T15:06:00.000Z',
      cardNumber: '4000000000000002',
    },
    ...pos,
    rulesetVersion: 3,
    items: [],
  };
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('a real accrual: receipt fields, every line, and the totals', async ({ page, api, request }) => {
  const { card, posKey, receiptId, accrual } = await accrualWithReceipt(
    api,
    request,
    [
      { sku: 'COFFEE-1KG', category: 'Beverages', quantity: 1, price: 1249.99, discount: 125 },
      { sku: 'CHEESE-GOUDA', category: 'Dairy', quantity: 0.355, price: 18.9, discount: 0.71 },
      { sku: 'BAG', quantity: 3, price: 0.1 },
    ],
    { name: uniqueName('Deli'), address: '9 Market Street' },
  );
  const dialog = await openReceipt(page, accrual.operationId);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Receipt Details' })).toBeVisible();

  const fields = dialog.getByRole('definition');
  await expect(dialog).toContainText(`Receipt ID${receiptId}`);
  await expect(dialog).toContainText(`POS${posKey.name}, 9 Market Street`);
  await expect(dialog).toContainText(`Card Number${card.number}`);
  // 1,124.99 + 6 (0.355 × 18.9 = 6.71, less 0.71) + 0.3
  await expect(dialog).toContainText('Total Amount€1,131.29');
  await expect(dialog).toContainText('Total Discount€125.71');
  // Bought online: the purchase is the booking, said once.
  await expect(fields.filter({ hasText: DATE_TIME })).toHaveCount(1);
  await expect(dialog.getByRole('term')).not.toContainText(['Booked']);
  // The ruleset the accrual was earned under (POS-API: the operation records it).
  const detail = await expectJson<{ rulesetVersion: number }>(
    await api.get(`/api/v1/receipts/operation/${accrual.operationId}`),
  );
  expect(detail.rulesetVersion).toBeGreaterThan(0);
  await expect(dialog).toContainText(`Earned underRuleset v${detail.rulesetVersion}`);

  const items = dialog.getByRole('table', { name: 'Receipt items' });
  await expect(items.getByRole('columnheader')).toHaveText([
    'SKU',
    'Category',
    'Qty',
    'Price',
    'Discount',
    'Line Total',
    'Bonus Points',
  ]);
  const line = (n: number) => items.getByRole('row').nth(n).getByRole('cell');
  // The ruleset in force may be any test's: the points are the till's answer, shown en-US.
  const [coffee = '', cheese = '', bag = ''] = accrual.receipt.items.map((item) =>
    en.format(item.bonusPoints),
  );
  // Issue 16: money always with two decimals and the programme's currency (EUR by default).
  await expect(line(1)).toHaveText([
    'COFFEE-1KG',
    'Beverages',
    '1',
    '€1,249.99',
    '€125.00',
    '€1,124.99',
    coffee,
  ]);
  await expect(line(2)).toHaveText(['CHEESE-GOUDA', 'Dairy', '0.355', '€18.90', '€0.71', '€6.00', cheese]);
  await expect(line(3)).toHaveText(['BAG', '—', '3', '€0.10', '€0.00', '€0.30', bag]);

  const totals = dialog.getByRole('definition').last();
  await expect(dialog).toContainText('Subtotal€1,257.00'); // 1,249.99 + 6.71 + 0.3
  await expect(dialog).toContainText('Discount-€125.71');
  await expect(dialog).toContainText('Receipt Total€1,131.29');
  await expect(totals).toHaveText(`${en.format(accrual.points)} pts`);
  expect(accrual.points).toBeGreaterThan(0);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'View Receipt' }).first()).toBeFocused();
});

test('weighed goods: the subtotal is the lines as the server rounded them, less the discount the total', async ({
  page,
  api,
  request,
}) => {
  // 2.5 × 1.99 = 4.975 → 4.98 (half away from zero); 0.5 × 19.99 = 9.995 → 10.00, less 1.00 off.
  const { accrual } = await accrualWithReceipt(api, request, [
    { sku: 'APPLES', quantity: 2.5, price: 1.99 },
    { sku: 'CHEESE', quantity: 0.5, price: 19.99, discount: 1 },
  ]);
  const dialog = await openReceipt(page, accrual.operationId);
  await expect(dialog).toContainText('Total Amount€13.98');
  await expect(dialog).toContainText('Subtotal€14.98');
  await expect(dialog).toContainText('Discount-€1.00');
  await expect(dialog).toContainText('Receipt Total€13.98');
});

test("an offline till's receipt says when it was purchased, and when it was booked", async ({
  page,
  api,
  request,
}) => {
  await ensureRulesetInForce(api);
  const { card } = await accountWithCard(api);
  const posKey = await createPosKey(api);
  // Synced three days late: the rules read the purchase time, so the dialog must show it.
  const purchasedAt = new Date(Date.now() - 3 * 86_400_000);
  const accrual = await posAccrual(request, posKey.apiKey, {
    operationId: uniqueName('op'),
    cardNumber: card.number,
    receipt: {
      receiptId: uniqueName('R'),
      items: [{ sku: 'TEA', quantity: 1, price: 4 }],
      purchasedAt: purchasedAt.toISOString(),
    },
  });
  const dialog = await openReceipt(page, accrual.operationId);
  const stamp = (at: Date) =>
    new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'UTC',
    }).format(at);
  await expect(dialog).toContainText(`Purchased${stamp(purchasedAt)}`);
  await expect(dialog.getByRole('term')).toContainText(['Purchased', 'Booked']);
  const detail = await expectJson<{ receipt: { createdAt: string; purchasedAt: string } }>(
    await api.get(`/api/v1/receipts/operation/${accrual.operationId}`),
  );
  expect(detail.receipt.purchasedAt).toBe(purchasedAt.toISOString());
  await expect(dialog).toContainText(`Booked${stamp(new Date(detail.receipt.createdAt))}`);
});

test('a skeleton while it loads', async ({ page, api, request }) => {
  const { accrual } = await accrualWithReceipt(api, request, [{ sku: 'TEA', quantity: 1, price: 4 }]);
  const gate = await holdRequests(page, '**/api/v1/receipts/operation/*', 'GET');
  const dialog = await openReceipt(page, accrual.operationId);
  await expect(dialog.getByRole('status', { name: 'Loading receipt' })).toBeVisible();
  gate.release();
  await expect(dialog.getByRole('status', { name: 'Loading receipt' })).toHaveCount(0);
  await expect(dialog.getByRole('table', { name: 'Receipt items' })).toContainText('TEA');
});

test("'Failed to load receipt details' with the server's message; the dialog closes", async ({
  page,
  api,
  request,
}) => {
  const { accrual } = await accrualWithReceipt(api, request, [{ sku: 'TEA', quantity: 1, price: 4 }]);
  await page.route('**/api/v1/receipts/operation/*', failWith(404, 'Receipt not found', 'RECEIPT_NOT_FOUND'));
  const dialog = await openReceipt(page, accrual.operationId);
  const failed = toast(page, 'Failed to load receipt details');
  await expect(seenWith(failed, 'Receipt not found')).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test('the POS falls back to the name, the address, or the first 8 characters of its id', async ({
  page,
  api,
  request,
}) => {
  const { accrual } = await accrualWithReceipt(api, request, [{ sku: 'TEA', quantity: 1, price: 4 }]);
  const answers = [
    fakeReceipt({ posName: 'Kiosk', posAddress: null }),
    fakeReceipt({ posName: null, posAddress: '3 Dock Road' }),
    fakeReceipt({ posName: null, posAddress: null }),
  ];
  let call = 0;
  await page.route('**/api/v1/receipts/operation/*', (route) => route.fulfill({ json: answers[call++] }));
  // A receipt stays cached once loaded, so each answer is read on a fresh page.
  for (const text of ['POSKiosk', 'POS3 Dock Road', 'POS0a1b2c3d…']) {
    const dialog = await openReceipt(page, accrual.operationId);
    await expect(dialog).toContainText(text);
    await expect(dialog).toContainText('Total Amount€1,234.50');
    await expect(dialog.getByRole('table', { name: 'Receipt items' })).toContainText('No results.');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});

test('390 px, dark theme: the dialog fits and the items table scrolls sideways', async ({
  page,
  api,
  request,
}) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  const { accrual } = await accrualWithReceipt(api, request, [
    { sku: 'LONG-SKU-NAME-0001', category: 'Household cleaning', quantity: 12, price: 1234.56, discount: 1 },
  ]);
  const dialog = await openReceipt(page, accrual.operationId);
  await expect(dialog.getByRole('table', { name: 'Receipt items' })).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  const scroller = dialog.locator('[data-slot="table-container"]');
  const widths = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(widths.scroll).toBeGreaterThan(widths.client);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expect(page.locator('html')).toHaveClass(/dark/);
  // Said as the list tables say it, and a keyboard can scroll it: its area takes focus (axe:
  // scrollable-region-focusable), and ArrowRight moves it.
  await expect(dialog.getByTestId('scroll-hint')).toHaveText('Scroll sideways for more columns.');
  const region = dialog.getByRole('region', { name: 'Receipt items (scrolls sideways)' });
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  expect((await axeScan(page, { include: '[role="dialog"]' })).violations).toEqual([]);
});

test('an excluded SKU that earns 0 says so; money follows the programme currency', async ({
  page,
  api,
  request,
}) => {
  await ensureRulesetInForce(api);
  const inForce = (await listRulesets(api)).content.find((ruleset) => ruleset.inForce);
  expect(inForce?.config.percent).toBeGreaterThan(0);
  const excluded = uniqueName('EXCL').toUpperCase();
  await addExcludedSku(api, inForce!.id, { sku: excluded });
  const { accrual } = await accrualWithReceipt(api, request, [
    { sku: 'SOAP', quantity: 2, price: 5 },
    { sku: excluded, quantity: 1, price: 20 },
  ]);
  const [soap, skipped] = accrual.receipt.items;
  expect(soap?.bonusPoints).toBeGreaterThan(0);
  expect(skipped?.bonusPoints).toBe(0);

  // The server's settings, with another currency: the receipt is shown in it.
  await page.route('**/api/v1/settings', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), programme: { currency: 'USD' } } });
  });
  const dialog = await openReceipt(page, accrual.operationId);
  const items = dialog.getByRole('table', { name: 'Receipt items' });
  const line = (n: number) => items.getByRole('row').nth(n).getByRole('cell');
  await expect(line(1)).toHaveText([
    'SOAP',
    '—',
    '2',
    '$5.00',
    '$0.00',
    '$10.00',
    en.format(soap!.bonusPoints),
  ]);
  await expect(line(2)).toHaveText([excluded, '—', '1', '$20.00', '$0.00', '$20.00', '0Excluded SKU']);
  await expect(dialog).toContainText('Total Amount$30.00');
  await expect(dialog).toContainText('Receipt Total$30.00');
});
