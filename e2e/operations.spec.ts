import { randomInt } from 'node:crypto';
import type { Operation } from '@loyalty/contracts';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { chooseOption, expect, expectJson, seenWith, test, toast, uniqueName } from './support/fixtures';
import {
  accountWithCard,
  createPosKey,
  createRuleset,
  isoInDays,
  listRulesets,
  manualAccrual,
  type PosTill,
  posAccrual,
} from './support/programme-api';

// Spec section 2 "Operations History" (columns, POS cell, Details from meta, filters, search, View
// Receipt), 3 "Operation", 4 (displayed statuses), 8 ('Failed to load operations', 'Failed to load
// receipt details'), 9 (en-US numbers, up to 2 decimals). Each test works on its own card and finds its
// rows by searching the card number or its own operation-id prefix.

const OPERATIONS = '/api/v1/operations';
// Rows with data: not the skeleton rows of a load, nor the one row saying 'No results.'.
const DATA_ROWS = 'tbody tr:not([data-testid=skeleton-row]):not(:has(td[colspan]))';
const table = (page: Page) => page.getByRole('table', { name: 'Operations' });
const dataRows = (page: Page) => table(page).locator(DATA_ROWS);
const rowFor = (page: Page, operationId: string) =>
  dataRows(page).filter({ has: page.getByText(operationId, { exact: true }) });
const search = (page: Page, text: string) => page.getByLabel('Search operations').fill(text);
const typeFilter = (page: Page) => page.getByRole('combobox', { name: 'Filter by type' });
const statusFilter = (page: Page) => page.getByRole('combobox', { name: 'Filter by status' });
const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/;
const points = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const signed = (n: number) => (n > 0 ? `+${points.format(n)}` : points.format(n));

/** The POS needs a ruleset in force to accrue; any will do. */
async function ensureRulesetInForce(api: APIRequestContext) {
  const { content } = await listRulesets(api, { status: 'Active', size: 1 });
  if (content.length === 0) await createRuleset(api, { percent: 5, activeFrom: isoInDays(-1) });
}

interface Activity {
  prefix: string;
  cardNumber: string;
  till: PosTill;
  accrual: { operationId: string; points: number; receiptId: string };
  hold: string;
  failedHold: string;
}

/** One card with an opening manual accrual, a completed accrual (with a receipt), an active hold and a failed hold, all by one till. */
async function cardActivity(api: APIRequestContext, request: APIRequestContext): Promise<Activity> {
  await ensureRulesetInForce(api);
  const { account, card } = await accountWithCard(api);
  await manualAccrual(api, account.id, 100, 'Opening balance');
  const till = await createPosKey(api, { name: uniqueName('Corner Shop'), address: '5 Market Square' });
  const prefix = uniqueName('op');
  const receiptId = uniqueName('R');
  const accrual = await posAccrual(request, till, {
    operationId: `${prefix}-acc`,
    cardNumber: card.number,
    receipt: {
      receiptId,
      items: [
        { sku: 'MILK-1L', category: 'Dairy', quantity: 2, price: 1.49 },
        { sku: 'BREAD-01', category: 'Bakery', quantity: 1, price: 12.99, discount: 0.5 },
      ],
    },
  });
  const hold = `${prefix}-hold`;
  await expectJson(
    await request.post('/pos/api/v1/holds', {
      data: { operationId: hold, cardNumber: card.number, points: 20 },
      headers: { 'X-API-Key': till.apiKey },
    }),
  );
  const failedHold = `${prefix}-big`;
  const refused = await request.post('/pos/api/v1/holds', {
    data: { operationId: failedHold, cardNumber: card.number, points: 1_000_000 },
    headers: { 'X-API-Key': till.apiKey },
  });
  expect(refused.status()).toBe(409);
  return {
    prefix,
    cardNumber: card.number,
    till,
    accrual: { operationId: accrual.operationId, points: accrual.points, receiptId },
    hold,
    failedHold,
  };
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('lists a card’s operations with the spec columns, signed points, POS and details', async ({
  page,
  api,
  request,
}) => {
  const a = await cardActivity(api, request);
  await page.goto('/operations');
  await expect(page.getByRole('heading', { level: 1, name: 'Operations History' })).toBeVisible();
  await expect(table(page).getByRole('columnheader')).toHaveText([
    'Operation ID',
    'Type',
    'Card Number',
    'Points',
    'POS',
    'Status',
    'Created',
    'Details',
  ]);
  await search(page, a.cardNumber);
  // The opening manual accrual is on the card too (the account's active card).
  await expect(dataRows(page)).toHaveCount(4);
  // Newest first.
  await expect(dataRows(page).first().getByRole('cell').nth(0)).toHaveText(a.failedHold);
  await expect(dataRows(page).last().getByRole('cell').nth(1)).toHaveText('Adjustment');
  const pos = `${a.till.name}5 Market Square`;
  await expect(rowFor(page, a.accrual.operationId).getByRole('cell')).toHaveText([
    a.accrual.operationId,
    'Accrual',
    a.cardNumber,
    signed(a.accrual.points),
    pos,
    'completed',
    DATE,
    `Receipt:${a.accrual.receiptId}View Receipt`,
  ]);
  await expect(rowFor(page, a.hold).getByRole('cell')).toHaveText([
    a.hold,
    'Hold',
    a.cardNumber,
    '-20',
    pos,
    'active',
    DATE,
    '—',
  ]);
  await expect(rowFor(page, a.failedHold).getByRole('cell')).toHaveText([
    a.failedHold,
    'Hold',
    a.cardNumber,
    // Signed as asked, but nothing moved: said to screen readers (and muted on screen, see below).
    '-1,000,000 not applied (failed)',
    pos,
    'failed',
    DATE,
    'Error:INSUFFICIENT_FUNDS',
  ]);
  await expect(rowFor(page, a.hold).getByRole('button', { name: 'View Receipt' })).toHaveCount(0);
});

test('View Receipt opens the receipt with its items and totals; Escape closes it', async ({
  page,
  api,
  request,
}) => {
  const a = await cardActivity(api, request);
  await page.goto('/operations');
  await search(page, a.accrual.operationId);
  await rowFor(page, a.accrual.operationId).getByRole('button', { name: 'View Receipt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Receipt ID${a.accrual.receiptId}`);
  await expect(dialog).toContainText(`POS${a.till.name}, 5 Market Square`);
  await expect(dialog).toContainText(`Card Number${a.cardNumber}`);
  await expect(dialog).toContainText('Total Amount€15.47'); // 2 × 1.49 + 12.99 − 0.5
  await expect(dialog).toContainText('Total Discount€0.50');
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
  await expect(items.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    'MILK-1L',
    'Dairy',
    '2',
    '€1.49',
    '€0.00',
    '€2.98',
    /^\d+(\.\d{1,2})?$/,
  ]);
  await expect(items.getByRole('row').nth(2).getByRole('cell').nth(5)).toHaveText('€12.49');
  await expect(dialog).toContainText('Subtotal€15.97');
  await expect(dialog).toContainText('Receipt Total€15.47');
  await expect(dialog).toContainText(`Total Bonus Points Earned${points.format(a.accrual.points)} pts`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a refused accrual shows its receipt id and error, and no View Receipt: none was stored', async ({
  page,
  api,
  request,
}) => {
  await ensureRulesetInForce(api);
  const till = await createPosKey(api, { name: uniqueName('Kiosk'), address: null });
  const operationId = uniqueName('op-failed');
  const unknownCard = `9${String(randomInt(1e9, 9e9))}${String(randomInt(1e4, 9e4))}`;
  const refused = await request.post('/pos/api/v1/accruals', {
    data: {
      operationId,
      cardNumber: unknownCard,
      receipt: { receiptId: 'R-1', items: [{ sku: 'A', quantity: 1, price: 1 }] },
    },
    headers: { 'X-API-Key': till.apiKey },
  });
  expect(refused.status()).toBe(404);

  await page.goto('/operations');
  await search(page, operationId);
  const row = rowFor(page, operationId);
  // A POS known by its name only shows just the name.
  await expect(row.getByRole('cell').nth(4)).toHaveText(till.name);
  await expect(row.getByRole('cell').nth(5)).toHaveText('failed');
  // Its receipt was never stored (POS-API: the receipt is stored with the accrual it earned); a receipt that
  // cannot be loaded is receipt.spec's "'Failed to load receipt details' with the server's message".
  await expect(row.getByRole('cell').nth(7)).toHaveText('Receipt:R-1Error:CARD_NOT_FOUND');
  await expect(row.getByRole('button', { name: 'View Receipt' })).toHaveCount(0);
});

test('type and status filters and the search by operation id narrow the list', async ({
  page,
  api,
  request,
}) => {
  const a = await cardActivity(api, request);
  await page.goto('/operations');
  await typeFilter(page).click();
  await expect(page.getByRole('option')).toHaveText([
    'All types',
    'accrual',
    'redemption',
    'hold',
    'adjustment',
    'expiry',
  ]);
  await page.keyboard.press('Escape');
  await statusFilter(page).click();
  await expect(page.getByRole('option')).toHaveText(['All statuses', 'completed', 'pending', 'failed']);
  await page.keyboard.press('Escape');

  await search(page, a.prefix); // an operation-id prefix
  await expect(dataRows(page)).toHaveCount(3);
  await chooseOption(page, typeFilter(page), 'hold');
  await expect(dataRows(page)).toHaveCount(2);
  await chooseOption(page, statusFilter(page), 'failed');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, a.failedHold)).toBeVisible();
  await chooseOption(page, typeFilter(page), 'All types');
  await chooseOption(page, statusFilter(page), 'completed');
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, a.accrual.operationId)).toBeVisible();
  await chooseOption(page, statusFilter(page), 'All statuses');
  await search(page, a.hold);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, a.hold)).toBeVisible();
});

test('a manual accrual shows as an adjustment with its reason; search finds it by its id', async ({
  page,
  api,
}) => {
  const { account } = await accountWithCard(api);
  const reason = uniqueName('Goodwill');
  const operation = await manualAccrual(api, account.id, 1234.5, reason);
  await page.goto('/operations');
  await search(page, operation.id);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).getByRole('cell')).toHaveText([
    '—',
    'Adjustment',
    operation.cardNumber ?? '—',
    '+1,234.5',
    '—',
    'completed',
    DATE,
    `Reason:${reason}`,
  ]);
});

test('a seven-figure amount shows whole in the Points column at 1280 px, the table still fitting', async ({
  page,
  api,
}) => {
  const { account } = await accountWithCard(api);
  const operation = await manualAccrual(api, account.id, 1234567.89);
  await page.goto('/operations');
  await search(page, operation.id);
  await expect(dataRows(page)).toHaveCount(1);
  const cell = dataRows(page).getByRole('cell').nth(3);
  await expect(cell).toHaveText('+1,234,567.89');
  // Not cut to '+1,2…' by the cell's ellipsis: the amount is the point of the row.
  expect(await cell.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
  // …and the table keeps to the page: nothing scrolls sideways at this width.
  await expect(page.getByTestId('scroll-hint')).toHaveCount(0);
});

/** A stubbed operation: a hold on no account, with the given fields. */
const stubOperation = (n: number, fields: Partial<Operation>): Operation => ({
  id: `00000000-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`,
  operationId: `stub-op-${n}`,
  type: 'hold',
  points: '-20.00',
  status: 'active',
  accountId: null,
  cardNumber: '4000123412341234',
  posId: null,
  posName: null,
  posAddress: null,
  createdAt: '2030-01-02T03:04:05.000Z',
  meta: {},
  ...fields,
});

/** The Points cell (4th) of every data row: its text and whether its ellipsis cut it. */
async function pointsCells(page: Page) {
  return dataRows(page)
    .locator('td:nth-child(4)')
    .evaluateAll((cells) =>
      cells.map((td) => ({ text: td.textContent, cut: td.scrollWidth > td.clientWidth })),
    );
}

for (const width of [1280, 1440]) {
  test(`a nine-figure operation shows whole in the Points column at ${width} px, the table still fitting`, async ({
    page,
    api,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const { account } = await accountWithCard(api);
    const operation = await manualAccrual(api, account.id, 123456789.12);
    await page.goto('/operations');
    await search(page, operation.id);
    await expect(dataRows(page)).toHaveCount(1);
    // It showed '+123,456,78…': the column was sized for seven figures.
    expect(await pointsCells(page)).toEqual([{ text: '+123,456,789.12', cut: false }]);
    await expect(page.getByTestId('scroll-hint')).toHaveCount(0);
    // The width came from other columns, none of which is cut for it: every header shows whole.
    const cutHeaders = await table(page)
      .locator('th')
      .evaluateAll((ths) => ths.filter((th) => th.scrollWidth > th.clientWidth).map((th) => th.textContent));
    expect(cutHeaders).toEqual([]);
  });

  test(`the widest points an operation can hold (±999,999,999,999.99) show whole at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    // numeric(14, 2), the balance limit: an expiry of a full balance debits it all. No single API call
    // books that much, so the list answer is stubbed.
    const op = (n: number, type: Operation['type'], points: string): Operation =>
      stubOperation(10 + n, { operationId: `widest-${n}`, type, points, status: 'completed' });
    const content = [op(1, 'adjustment', '999999999999.99'), op(2, 'expiry', '-999999999999.99')];
    await page.route(`**${OPERATIONS}?**`, (route) =>
      route.fulfill({ json: { content, totalElements: 2, totalPages: 1, page: 0, size: 10 } }),
    );
    await page.goto('/operations');
    await expect(dataRows(page)).toHaveCount(2);
    expect(await pointsCells(page)).toEqual([
      { text: '+999,999,999,999.99', cut: false },
      { text: '-999,999,999,999.99', cut: false },
    ]);
    await expect(page.getByTestId('scroll-hint')).toHaveCount(0);
  });
}

for (const width of [1280, 1440]) {
  test(`View Receipt shows whole inside its Details cell, and the receipt id beside it, at ${width} px`, async ({
    page,
    api,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const a = await cardActivity(api, request);
    await page.goto('/operations');
    await search(page, a.accrual.operationId);
    await expect(dataRows(page)).toHaveCount(1);
    const cell = rowFor(page, a.accrual.operationId).getByRole('cell').nth(7);
    const button = cell.getByRole('button', { name: 'View Receipt' });
    await expect(button).toBeVisible();
    // Its label whole, and the button inside the cell: at 1280 px the cell's overflow cut it at 'View Rece'.
    expect(await button.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
    const [inner, outer] = [await button.boundingBox(), await cell.boundingBox()];
    expect(inner!.x + inner!.width).toBeLessThanOrEqual(outer!.x + outer!.width);
    // The receipt id beside its label keeps some width too (it was squeezed to nothing next to 'Receipt:').
    const receipt = cell.getByText(a.accrual.receiptId, { exact: true });
    expect((await receipt.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(40);
  });
}

async function stubList(page: Page, content: Operation[]) {
  await page.route(`**${OPERATIONS}?**`, (route) =>
    route.fulfill({ json: { content, totalElements: content.length, totalPages: 1, page: 0, size: 10 } }),
  );
}

/** Each Operation ID value: its text, and whether its box cut it (sideways, or past its second line). */
async function operationIdValues(page: Page) {
  return dataRows(page)
    .locator('td:first-child [data-slot=id-cell-value]')
    .evaluateAll((values) =>
      values.map((el) => ({
        text: el.textContent,
        cut: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1,
      })),
    );
}

for (const width of [1280, 390]) {
  test(`a till's operation id of up to 20 characters shows whole at ${width} px, the layout holding`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    // The seed's ids and a typical till's: every seeded row showed 'op-20261…' at 1280 px with the sidebar open.
    const ids = ['op-20261109-000123', 'op-20261109-000124', 'till07-20261109-0042', 'POS0042LANE07R000123'];
    await stubList(
      page,
      ids.map((operationId, n) =>
        stubOperation(n, {
          operationId,
          type: 'accrual',
          points: '999999999999.99',
          status: 'completed',
          meta: { receipt: `R-${operationId}` },
        }),
      ),
    );
    await page.goto('/operations');
    await expect(dataRows(page)).toHaveCount(4);
    expect(await operationIdValues(page)).toEqual(ids.map((text) => ({ text, cut: false })));
    // Its copy button inside the cell, and the rest of the row as before: the widest points whole, View
    // Receipt inside Details, nothing sideways at 1280 px (at 390 px the table scrolls, the page does not).
    const row = dataRows(page).first();
    const [cell, copy] = [
      row.getByRole('cell').first(),
      row.getByRole('button', { name: 'Copy operation ID' }),
    ];
    const [inner, outer] = [await copy.boundingBox(), await cell.boundingBox()];
    expect(inner!.x + inner!.width).toBeLessThanOrEqual(outer!.x + outer!.width);
    expect(inner!.y + inner!.height).toBeLessThanOrEqual(outer!.y + outer!.height);
    expect((await pointsCells(page)).every((points) => !points.cut)).toBe(true);
    const details = row.getByRole('cell').nth(7);
    await details.scrollIntoViewIfNeeded();
    const [button, detailsBox] = [
      await details.getByRole('button', { name: 'View Receipt' }).boundingBox(),
      await details.boundingBox(),
    ];
    expect(button!.x + button!.width).toBeLessThanOrEqual(detailsBox!.x + detailsBox!.width);
    if (width === 1280) await expect(page.getByTestId('scroll-hint')).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('a failed operation keeps its signed points, muted and marked not applied; a moved one stays coloured', async ({
  page,
}) => {
  await stubList(page, [
    stubOperation(1, {
      operationId: 'refused-hold',
      points: '-99999.00',
      status: 'failed',
      meta: { error: 'INSUFFICIENT_FUNDS' },
    }),
    stubOperation(2, { operationId: 'open-hold', points: '-20.00', status: 'active' }),
    stubOperation(3, {
      operationId: 'refused-credit',
      type: 'adjustment',
      points: '12.50',
      status: 'failed',
    }),
  ]);
  await page.goto('/operations');
  await expect(dataRows(page)).toHaveCount(3);
  const points = (operationId: string) => rowFor(page, operationId).getByRole('cell').nth(3);
  await expect(points('refused-hold')).toHaveText('-99,999 not applied (failed)');
  await expect(points('refused-credit')).toHaveText('+12.5 not applied (failed)');
  await expect(points('open-hold')).toHaveText('-20');
  // The hint is there for a pointer too, on the number itself.
  await expect(points('refused-hold').getByTitle(/not applied \(failed\)/)).toHaveText(/^-99,999/);
  const colour = (cell: Locator) =>
    cell
      .locator('span')
      .first()
      .evaluate((el) => getComputedStyle(el).color);
  const muted = await page
    .locator('tbody [class*=text-muted-foreground]')
    .first()
    .evaluate((el) => getComputedStyle(el).color);
  // Neither the red of a debit nor the green of a credit: the muted text colour.
  expect(await colour(points('refused-hold'))).toBe(muted);
  expect(await colour(points('refused-credit'))).toBe(muted);
  expect(await colour(points('open-hold'))).not.toBe(muted);
});

test('every displayed status, each POS fallback and each detail from meta', async ({ page }) => {
  const op = (n: number, fields: Partial<Operation>): Operation =>
    stubOperation(n, {
      type: 'redemption',
      points: '-3.00',
      status: 'completed',
      operationId: `stub-${n}`,
      ...fields,
    });
  const content = [
    op(1, { posName: 'North', posAddress: '1 High St', meta: { store: 'S-9', transactionId: 'T-77' } }),
    op(2, { posName: 'South', status: 'active', meta: { reward: 'Free coffee' } }),
    op(3, { posAddress: '9 Low Rd', status: 'applied', meta: { reason: 'Returned goods' } }),
    op(4, { posId: 'abcdef12-3456-4789-8abc-def012345678', status: 'voided', points: '0.5' }),
    op(5, { status: 'pending', points: '0.00', meta: { error: 'TIMEOUT' } }),
    op(6, { status: 'failed', type: 'accrual', meta: { receipt: 'R-6' } }),
  ];
  await page.route(`**${OPERATIONS}?**`, (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ content, totalElements: 6, totalPages: 1, page: 0, size: 10 }),
    }),
  );
  await page.goto('/operations');
  const cells = (n: number, column: number) => rowFor(page, `stub-${n}`).getByRole('cell').nth(column);
  await expect(cells(1, 4)).toHaveText('North1 High St');
  await expect(cells(2, 4)).toHaveText('South');
  await expect(cells(3, 4)).toHaveText('9 Low Rd');
  await expect(cells(4, 4)).toHaveText('abcdef12…');
  await expect(cells(5, 4)).toHaveText('—');
  await expect(dataRows(page).locator('td:nth-child(6)')).toHaveText([
    'completed',
    'active',
    'applied',
    'voided',
    'pending',
    'failed',
  ]);
  await expect(dataRows(page).locator('td:nth-child(4)')).toHaveText([
    '-3',
    '-3',
    '-3',
    '+0.5',
    '0',
    // The failed one: nothing moved.
    '-3 not applied (failed)',
  ]);
  await expect(cells(1, 7)).toHaveText('Store:S-9Transaction:T-77');
  await expect(cells(2, 7)).toHaveText('Reward:Free coffee');
  await expect(cells(3, 7)).toHaveText('Reason:Returned goods');
  await expect(cells(5, 7)).toHaveText('Error:TIMEOUT');
  await expect(cells(6, 7)).toHaveText('Receipt:R-6');
  await expect(cells(1, 6)).toHaveText('Jan 2, 2030, 3:04 AM');
});

test('a till request refused before it took its id is found by that id, shown as its Requested ID', async ({
  page,
  api,
  request,
}) => {
  // A hold of -1 fails validation: recorded as failed without taking the id (POS-API "Failed writes"), so
  // its Operation ID stays empty and the id the till sent is what staff search for.
  const { card } = await accountWithCard(api);
  const till = await createPosKey(api, { name: uniqueName('Till'), address: null });
  const requested = uniqueName('op-refused');
  const refused = await request.post('/pos/api/v1/holds', {
    data: { operationId: requested, cardNumber: card.number, points: -1 },
    headers: { 'X-API-Key': till.apiKey },
  });
  expect(refused.status()).toBe(400);
  await page.goto('/operations');
  await search(page, requested.slice(0, -2)); // a prefix, as operation ids are searched
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).getByRole('cell')).toHaveText([
    '—',
    'Hold',
    card.number,
    '0 not applied (failed)',
    till.name,
    'failed',
    DATE,
    `Requested ID:${requested}Error:VALIDATION_ERROR`,
  ]);
});

test('a return the balance could not cover shows its shortfall and links to the accrual it returns', async ({
  page,
  api,
  request,
}) => {
  await ensureRulesetInForce(api);
  const { account, card } = await accountWithCard(api);
  const till = await createPosKey(api, { name: uniqueName('Till'), address: null });
  const receiptId = uniqueName('R');
  const accrual = await posAccrual(request, till, {
    operationId: uniqueName('op-acc'),
    cardNumber: card.number,
    receipt: { receiptId, items: [{ sku: uniqueName('SKU'), quantity: 1, price: 500 }] },
  });
  expect(accrual.points).toBeGreaterThanOrEqual(0.02);
  // Half the points held: the return can take back only the other half.
  const held = Math.round(accrual.points * 50) / 100;
  const pos = (path: string, data: object) =>
    request.post(`/pos/api/v1/${path}`, { data, headers: { 'X-API-Key': till.apiKey } });
  await expectJson(
    await pos('holds', { operationId: uniqueName('op-hold'), cardNumber: card.number, points: held }),
  );
  const returnId = uniqueName('op-ret');
  const returned = await expectJson<{ points: number }>(
    await pos('returns', { operationId: returnId, originalOperationId: accrual.operationId }),
  );
  const taken = Math.round((accrual.points - held) * 100) / 100;
  expect(returned.points).toBe(-taken);

  await page.goto('/operations');
  await search(page, returnId);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).getByRole('cell')).toHaveText([
    returnId,
    'Adjustment',
    card.number,
    signed(-taken),
    till.name,
    'completed',
    DATE,
    `Receipt:${receiptId}Reason:Return of receipt ${receiptId}Return of:${accrual.operationId}` +
      `Shortfall:${points.format(held)} pts`,
  ]);
  // The accrual it returns, one click away.
  await dataRows(page).getByRole('link', { name: accrual.operationId }).click();
  await expect(page).toHaveURL(new RegExp(`/operations\\?search=${accrual.operationId}$`));
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, accrual.operationId).getByRole('cell').nth(1)).toHaveText('Accrual');

  // The client page's operations say it too, under the reason.
  await page.goto(`/clients/${account.id}`);
  const ofClient = page.getByRole('table', { name: `Operations of ${account.clientId}` });
  await expect(
    ofClient.locator(DATA_ROWS).filter({ hasText: 'Return of receipt' }).getByRole('cell').last(),
  ).toHaveText(`Return of receipt ${receiptId}Shortfall: ${points.format(held)} pts`);

  // At 390 px the Details keep the shortfall whole, and the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/operations?search=${returnId}`);
  const shortfall = dataRows(page).getByText(`${points.format(held)} pts`, { exact: true });
  await shortfall.scrollIntoViewIfNeeded();
  await expect(shortfall).toBeVisible();
  expect(await shortfall.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a redemption names the hold it captured, one click from it', async ({ page, api, request }) => {
  const { account, card } = await accountWithCard(api);
  await manualAccrual(api, account.id, 100, 'Opening balance');
  const till = await createPosKey(api, { name: uniqueName('Till'), address: null });
  const pos = (path: string, data: object) =>
    request.post(`/pos/api/v1/${path}`, { data, headers: { 'X-API-Key': till.apiKey } });
  const { holdId } = await expectJson<{ holdId: string }>(
    await pos('holds', { operationId: uniqueName('op-hold'), cardNumber: card.number, points: 20 }),
  );
  const captureId = uniqueName('op-cap');
  await expectJson(await pos(`holds/${holdId}/capture`, { operationId: captureId, points: 12 }));

  await page.goto('/operations');
  await search(page, captureId);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(rowFor(page, captureId).getByRole('cell').last()).toContainText(`Hold:${holdId}`);
  await rowFor(page, captureId).getByRole('link', { name: holdId }).click();
  await expect(page).toHaveURL(new RegExp(`/operations\\?search=${holdId}$`));
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).getByRole('cell').nth(1)).toHaveText('Hold');
});

test("an imported member's opening balance: its client linked without a card, its import and line", async ({
  page,
  api,
}) => {
  const clientId = uniqueName('IMPORTED').toUpperCase();
  const { importId } = await expectJson<{ importId: string }>(
    await api.post('/api/v1/imports/accounts', {
      headers: { 'content-type': 'text/csv' },
      data: `clientId,points,reason\n${clientId},12,Opening\n`,
    }),
  );
  const { content } = await expectJson<{ content: Array<{ id: string; clientId: string }> }>(
    await api.get(`/api/v1/accounts?search=${clientId}`),
  );
  const account = content.find((a) => a.clientId === clientId)!;
  const [opening] = (
    await expectJson<{ content: Operation[] }>(await api.get(`${OPERATIONS}?accountId=${account.id}`))
  ).content;

  // The search takes an operation's exact UUID: the only way to this row, which has neither card nor id.
  await page.goto(`/operations?search=${opening!.id}`);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).getByRole('cell')).toHaveText([
    '—',
    'Adjustment',
    `No card for client ${account.id}`,
    '+12',
    '—',
    'completed',
    DATE,
    'Import:Members, line 2Reason:Opening',
  ]);
  // The link lands on that import's audit entry, not on every import's.
  const importLink = dataRows(page).getByRole('link', { name: 'Members, line 2' });
  await expect(importLink).toHaveAttribute('href', `/audit?targetType=import&targetId=${importId}`);
  await importLink.click();
  await expect(page).toHaveURL(new RegExp(`/audit\\?targetType=import&targetId=${importId}$`));
  const auditRows = page
    .getByRole('table', { name: 'Audit logs' })
    .getByRole('row')
    .filter({ has: page.getByRole('checkbox', { name: 'Select row' }) });
  await expect(auditRows).toHaveCount(1);
  await expect(auditRows.getByRole('cell').nth(5)).toHaveText(importId);
  await page.goBack();
  await dataRows(page)
    .getByRole('link', { name: `No card for client ${account.id}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/clients/${account.id}$`));
});

test('an expiry says how many lots it took; a bulk credit names its file and line', async ({ page }) => {
  await stubList(page, [
    stubOperation(1, {
      operationId: null,
      type: 'expiry',
      points: '-7.00',
      status: 'completed',
      meta: { lots: 3 },
    }),
    stubOperation(2, {
      operationId: null,
      type: 'adjustment',
      points: '5.00',
      status: 'completed',
      meta: { source: 'import-credit', importId: '00000000-0000-4000-8000-000000000abc', line: 5 },
    }),
  ]);
  await page.goto('/operations');
  await expect(dataRows(page)).toHaveCount(2);
  await expect(dataRows(page).locator('td:last-child')).toHaveText(['Lots:3', 'Import:Bulk credits, line 5']);
});

test("a load failure shows 'Failed to load operations'", async ({ page }) => {
  await page.route(`**${OPERATIONS}?**`, (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ status: 400, message: 'Operations are unavailable' }),
    }),
  );
  await page.goto('/operations');
  const failed = toast(page, 'Failed to load operations');
  await expect(seenWith(failed, 'Operations are unavailable')).toBeVisible();
  await expect(table(page).getByRole('alert')).toContainText('Failed to load operations');
});

test('a VIEWER reads the history and opens receipts', async ({ page, api, request, signIn, createUser }) => {
  const a = await cardActivity(api, request);
  await signIn(page, await createUser('VIEWER'));
  await page.goto('/operations');
  await search(page, a.cardNumber);
  await expect(dataRows(page)).toHaveCount(4);
  await rowFor(page, a.accrual.operationId).getByRole('button', { name: 'View Receipt' }).click();
  await expect(page.getByRole('dialog', { name: 'Receipt Details' })).toContainText(a.accrual.receiptId);
});

test('works at 390 px wide, the receipt dialog included', async ({ page, api, request }) => {
  const a = await cardActivity(api, request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/operations');
  await search(page, a.accrual.operationId);
  await expect(rowFor(page, a.accrual.operationId)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const viewReceipt = rowFor(page, a.accrual.operationId).getByRole('button', { name: 'View Receipt' });
  await viewReceipt.scrollIntoViewIfNeeded();
  await viewReceipt.click();
  const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
});
