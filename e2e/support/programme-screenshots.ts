import type { Page } from '@playwright/test';
import type { ScreenshotSeeder, ScreenshotState } from '../screenshot-states';
import {
  accountWithCard,
  addExcludedSku,
  createPosKey,
  createRuleset,
  isoInDays,
  manualAccrual,
  posAccrual,
  saveSettings,
} from './programme-api';

/**
 * Screenshot states and data of the programme screens (Settings, Rulesets, SKU Exclusions, Operations
 * History), listed by e2e/screenshot-states.ts.
 */

async function openDialog(page: Page, button: string, dialog: string) {
  await page.getByRole('button', { name: button }).first().click();
  await page.getByRole('dialog', { name: dialog }).waitFor();
}

export const programmeScreenshotStates: ScreenshotState[] = [
  {
    route: '/settings',
    name: 'errors',
    prepare: async (page) => {
      await page.getByLabel('Holds TTL (minutes)').fill('-5');
      await page.getByRole('button', { name: 'Save Settings' }).first().click();
      await page.getByText('Holds TTL must be at least 1').waitFor();
    },
  },
  {
    route: '/settings',
    name: 'time-zone',
    prepare: async (page) => {
      await page.getByRole('heading', { name: 'Time Zone' }).scrollIntoViewIfNeeded();
    },
  },
  {
    route: '/rulesets',
    name: 'create-errors',
    prepare: async (page) => {
      await page.getByLabel('Accrual Percentage').fill('150');
      await page.getByRole('button', { name: 'Create Ruleset' }).click();
      await page.getByText('Accrual Percentage must be between 0 and 100').waitFor();
    },
  },
  {
    route: '/rulesets',
    name: 'advanced-rules',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Advanced rules' }).click();
      await page.getByLabel('Minimum Spend').fill('10');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByLabel('Name').fill('Weekend bakery');
      await page.getByLabel('Percent', { exact: true }).fill('1000.5');
      await page.getByLabel('Categories').fill('Bakery');
      await page.getByRole('checkbox', { name: 'Sat' }).check();
      await page.getByRole('checkbox', { name: 'Sun' }).check();
      await page.getByLabel('Hours from').fill('18:00');
      await page.getByLabel('Hours to').fill('09:00');
      await page.getByRole('button', { name: 'Create Ruleset' }).click();
      await page.getByText('Percent must be between 0 and 1000').waitFor();
    },
  },
  {
    route: '/rulesets',
    name: 'details-backtest',
    prepare: async (page) => {
      await page.getByRole('button', { name: '1', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Ruleset version 1' });
      await dialog.getByRole('button', { name: 'Run Backtest' }).click();
      await dialog.getByRole('img', { name: 'Backtest by category chart' }).waitFor();
    },
  },
  {
    route: '/sku-exclusions',
    name: 'add-sku',
    prepare: (page) => openDialog(page, 'Add SKU', 'Add SKU'),
  },
  {
    route: '/sku-exclusions',
    name: 'add-sku-errors',
    prepare: async (page) => {
      await openDialog(page, 'Add SKU', 'Add SKU');
      await page.getByRole('dialog', { name: 'Add SKU' }).getByRole('button', { name: 'Add SKU' }).click();
      await page.getByText('SKU is required', { exact: true }).waitFor();
    },
  },
  {
    route: '/sku-exclusions',
    name: 'remove-sku',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Remove TOB-001' }).click();
      await page.getByRole('alertdialog', { name: 'Remove SKU' }).waitFor();
    },
  },
  {
    route: '/sku-exclusions',
    name: 'ruleset-chooser',
    prepare: async (page) => {
      await page.getByRole('combobox', { name: 'Ruleset' }).click();
      await page.getByRole('listbox').waitFor();
    },
  },
  {
    route: '/operations',
    name: 'receipt',
    prepare: async (page) => {
      const row = page.getByRole('row').filter({ hasText: 'R-000123' });
      await row.getByRole('button', { name: 'View Receipt' }).click();
      const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
      await dialog.getByRole('table', { name: 'Receipt items' }).waitFor();
    },
  },
];

/**
 * Rulesets 1 (in force), 2 (draft) and 3 (scheduled, the latest, with excluded SKUs), settings, and a card
 * with a manual accrual, a receipt accrual and a hold, so every programme screen shows real rows.
 */
export const seedProgramme: ScreenshotSeeder = async (api) => {
  await saveSettings(api, { holds: { ttl_minutes: 30 }, cards: { limit_per_account: 3 } });
  await createRuleset(api, { version: 2, percent: 2.25 });
  // The ruleset in force has earning rules (issue 10): the receipt names the one its dairy line earned by.
  const created = await api.post('/api/v1/rulesets', {
    data: {
      version: 1,
      activeFrom: isoInDays(-30),
      config: {
        percent: 5,
        maxPointsPerCardPerDay: 500,
        rules: [
          { name: 'Dairy double', percent: 10, categories: ['Dairy'] },
          { name: 'Weekend coffee', percent: 8, skus: ['COFFEE-250'], daysOfWeek: [6, 7] },
          { name: 'Happy hour', percent: 7, hours: { from: '17:00', to: '18:59' } },
        ],
      },
    },
  });
  if (!created.ok()) throw new Error(`seeding a ruleset: ${created.status()} ${await created.text()}`);
  const inForce = (await created.json()) as { id: string };
  // A receipt line with an excluded SKU shows its 'Excluded SKU' hint.
  await addExcludedSku(api, inForce.id, {
    sku: 'TOB-001',
    description: 'Cigarettes, 20 pack',
    category: 'Tobacco',
  });
  const latest = await createRuleset(api, { version: 3, percent: 7.5, activeFrom: isoInDays(14) });
  const skus = [
    { sku: 'TOB-001', description: 'Cigarettes, 20 pack', category: 'Tobacco' },
    { sku: 'ALC-750', description: 'Red wine 0.75 l', category: 'Alcohol' },
    { sku: 'LOT-01', description: 'Lottery ticket', category: 'Lottery' },
    { sku: 'GIFT-50', description: 'Gift card 50', category: null },
  ];
  for (const sku of skus) await addExcludedSku(api, latest.id, sku);

  const { account, card } = await accountWithCard(api);
  await manualAccrual(api, account.id, 125.5, 'Welcome bonus');
  const till = await createPosKey(api, { name: 'Main Street Store', address: '12 Main Street, Springfield' });
  await posAccrual(api, till, {
    operationId: 'till-7-000123',
    cardNumber: card.number,
    receipt: {
      receiptId: 'R-000123',
      items: [
        { sku: 'MILK-1L', category: 'Dairy', quantity: 2, price: 1.49 },
        { sku: 'BREAD-01', category: 'Bakery', quantity: 1, price: 2.99, discount: 0.5 },
        { sku: 'COFFEE-250', category: 'Grocery', quantity: 1, price: 6.8 },
        { sku: 'TOB-001', category: 'Tobacco', quantity: 1, price: 9.5 },
      ],
    },
  });
  const hold = await api.post('/pos/api/v1/holds', {
    data: { operationId: 'till-7-000124', cardNumber: card.number, points: 20 },
    headers: { 'X-API-Key': till.apiKey },
  });
  if (!hold.ok()) throw new Error(`seeding a hold: ${hold.status()} ${await hold.text()}`);
};
