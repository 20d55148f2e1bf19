import type { ScreenshotSeeder, ScreenshotState } from '../screenshot-states';
import { addPoints, blockCard, createAccount, issueCard } from './loyalty-api';
import { createPosKey, posAccrual } from './programme-api';

/** The client the client page is photographed with: a reissued card, receipts, credits and a hold. */
export const SCREENSHOT_CLIENT_ID = 'CL-0042-ANNA-MARIE';

export const seedClientPage: ScreenshotSeeder = async (api) => {
  const account = await createAccount(api, SCREENSHOT_CLIENT_ID);
  const lost = await issueCard(api, account.id);
  const till = await createPosKey(api, { name: 'Harbour Mall', address: '3 Quay Road, Springfield' });
  const baskets = [
    [{ sku: 'APPLES-1KG', category: 'Produce', quantity: 1, price: 3.2 }],
    [
      { sku: 'PASTA-500', category: 'Grocery', quantity: 3, price: 1.15 },
      { sku: 'OLIVE-OIL', category: 'Grocery', quantity: 1, price: 8.9, discount: 1 },
    ],
  ];
  for (const [i, items] of baskets.entries()) {
    await posAccrual(api, till, {
      operationId: `harbour-${String(i + 1).padStart(6, '0')}`,
      cardNumber: lost.number,
      receipt: { receiptId: `HM-2026-${String(1041 + i)}`, items },
    });
  }
  await blockCard(api, lost.id, 'Reported lost at the till');
  const current = await issueCard(api, account.id);
  await addPoints(api, account.id, 50, 'Apology for a late delivery');
  await posAccrual(api, till, {
    operationId: 'harbour-000003',
    cardNumber: current.number,
    receipt: { receiptId: 'HM-2026-1043', items: [{ sku: 'COFFEE-250', quantity: 2, price: 6.8 }] },
  });
  const hold = await api.post('/pos/api/v1/holds', {
    data: { operationId: 'harbour-000004', cardNumber: current.number, points: 10 },
    headers: { 'X-API-Key': till.apiKey },
  });
  if (!hold.ok()) throw new Error(`seeding a hold: ${hold.status()} ${await hold.text()}`);
};

/** Reached as staff reach it: the client ID's link in the Accounts table. */
export const clientPageScreenshotStates: ScreenshotState[] = [
  {
    route: '/accounts',
    name: 'client-page',
    prepare: async (page) => {
      await page.getByRole('link', { name: SCREENSHOT_CLIENT_ID }).click();
      await page.getByRole('heading', { level: 1, name: SCREENSHOT_CLIENT_ID }).waitFor();
      await page.getByRole('region', { name: 'Receipts' }).locator('tbody tr').nth(2).waitFor();
    },
  },
];
