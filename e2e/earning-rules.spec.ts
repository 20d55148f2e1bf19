import type { Ruleset } from '@loyalty/contracts';
import type { Page } from '@playwright/test';
import { expect, expectJson, test, toast, uniqueName } from './support/fixtures';
import { createCardholder } from './support/loyalty-api';
import { createPosKey, ensureRulesetInForce, posAccrual } from './support/pos-api-helpers';
import { listRulesets } from './support/programme-api';

// Issue 10 / PROGRAMME-API §3: the Rulesets create form's 'Advanced rules', a ruleset's details with all its
// rules, its backtest, and the rule a receipt line earned by in the Receipt dialog.

const form = (page: Page) => page.getByRole('form', { name: 'Create Ruleset' });
const rule = (page: Page, n: number) => form(page).getByRole('group', { name: `Rule ${n}` });

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('creates a ruleset with rules, shows them, backtests it and names the rule in a receipt', async ({
  page,
  api,
  request,
}) => {
  test.slow();
  await ensureRulesetInForce(api);
  const base = (await listRulesets(api)).content.find((r) => r.inForce)!;
  // The rule targets a till of this test only, so other tests' accruals earn the same base as before.
  const till = await createPosKey(api, { name: uniqueName('Till') });
  const ruleName = uniqueName('Dairy x3');

  await page.goto('/rulesets');
  const f = form(page);
  await f.getByLabel('Accrual Percentage').fill(String(base.config.percent));
  await f.getByLabel('Active From').fill('2020-01-01T00:00');
  await f.getByRole('button', { name: 'Advanced rules' }).click();
  await f.getByLabel('Max Points per Receipt').fill('1000');
  await f.getByRole('button', { name: 'Add rule' }).click();
  await expect(rule(page, 1).getByLabel('Name')).toBeFocused();
  await rule(page, 1).getByLabel('Name').fill(ruleName);
  await rule(page, 1).getByLabel('Percent').fill('30');
  await rule(page, 1).getByLabel('Categories').fill('dairy, cheese');
  await rule(page, 1).getByRole('checkbox', { name: till.name }).check();

  // Validation under each field, in the browser, with the contract's messages.
  await f.getByRole('button', { name: 'Add rule' }).click();
  await rule(page, 2).getByLabel('Name').fill(ruleName);
  await rule(page, 2).getByLabel('Percent').fill('1000.5');
  // From without To (From after To is allowed: it runs past midnight).
  await rule(page, 2).getByLabel('Hours from').fill('12:00');
  await f.getByRole('button', { name: 'Create Ruleset' }).click();
  await expect(rule(page, 2).getByText('Percent must be between 0 and 1000')).toBeVisible();
  await expect(rule(page, 2).getByText('To must be a time HH:MM (00:00 to 23:59)')).toBeVisible();
  await expect(rule(page, 2).getByLabel('Percent')).toHaveAttribute('aria-invalid', 'true');
  // Once each rule is valid, the list's own check: names unique.
  await rule(page, 2).getByLabel('Percent').fill('2');
  await rule(page, 2).getByLabel('Hours to').fill('13:00');
  await f.getByRole('button', { name: 'Create Ruleset' }).click();
  await expect(rule(page, 2).getByText('Rule names must be unique')).toBeVisible();
  await rule(page, 2).getByRole('button', { name: 'Remove Rule 2' }).click();
  await expect(rule(page, 2)).toHaveCount(0);

  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/rulesets'),
  );
  await f.getByRole('button', { name: 'Create Ruleset' }).click();
  const ruleset = (await (await created).json()) as Ruleset;
  await expect(toast(page, 'Ruleset created successfully')).toBeVisible();
  try {
    expect(ruleset.inForce).toBe(true);
    expect(ruleset.config.rules).toEqual([
      {
        name: ruleName,
        percent: 30,
        categories: ['dairy', 'cheese'],
        skus: [],
        posIds: [till.id],
        daysOfWeek: [],
      },
    ]);
    // An accrual at the rule's till while the ruleset is in force.
    const accrual = await posAccrual(request, till.apiKey, {
      operationId: uniqueName('op'),
      cardNumber: (await createCardholder(api)).card.number,
      receipt: {
        receiptId: uniqueName('R'),
        items: [
          { sku: 'MILK', category: 'dairy', quantity: 1, price: 10 },
          { sku: 'SOAP', quantity: 1, price: 10 },
        ],
      },
    });
    expect(accrual.receipt.items.map((i) => (i as { rule?: string }).rule)).toEqual([ruleName, 'base']);

    // The row opens the details: every rule.
    await page.getByLabel('Search rulesets').fill(String(ruleset.version));
    await page.getByRole('button', { name: String(ruleset.version), exact: true }).click();
    const details = page.getByRole('dialog', { name: `Ruleset Version ${ruleset.version}`, exact: true });
    const rules = details.getByRole('table', { name: 'Rules' });
    await expect(rules.getByRole('row').nth(1).getByRole('cell')).toHaveText([
      ruleName,
      '30%',
      'dairy, cheese',
      'Any',
      till.name,
      'Any',
      'Any',
    ]);
    await expect(details.getByText('Max Points per Receipt')).toBeVisible();

    // Backtest over the last 7 days: numbers, the chart, the per-category table.
    // By keyboard: the button disables itself while it runs; focus goes to the result's heading, in the dialog.
    await details.getByRole('button', { name: 'Run Backtest' }).focus();
    await page.keyboard.press('Enter');
    await expect(details.getByRole('heading', { name: 'Backtest result' })).toBeFocused();
    const result = details.getByRole('definition').filter({ hasText: /^\d/ }).first();
    await expect(result).toBeVisible();
    await expect(details.getByRole('img', { name: 'Backtest by category chart' })).toBeVisible();
    const byCategory = details.getByRole('table', { name: 'Backtest by category' });
    await expect(byCategory.getByRole('row', { name: /^dairy / })).toBeVisible();
    await page.keyboard.press('Escape');

    // The receipt names the rule its dairy line earned by.
    await page.goto('/operations');
    await page.getByLabel('Search operations').fill(accrual.operationId);
    await page
      .getByRole('table', { name: 'Operations' })
      .getByRole('row')
      .filter({ hasText: accrual.operationId })
      .first()
      .getByRole('button', { name: 'View Receipt' })
      .click();
    const items = page.getByRole('dialog').getByRole('table', { name: 'Receipt items' });
    await expect(items.getByRole('row').nth(1).getByRole('cell').last()).toHaveText(`3${ruleName}`);
    await expect(items.getByRole('row').nth(2).getByRole('cell').last()).toHaveText(
      String(Math.round(10 * base.config.percent) / 100),
    );
  } finally {
    // Never leave this ruleset in force for the other tests.
    await expectJson(await api.post(`/api/v1/rulesets/${ruleset.id}/retire`));
  }
});

test('removing a rule moves focus to the next rule, else the previous one, else Add rule', async ({
  page,
}) => {
  await page.goto('/rulesets');
  const f = form(page);
  await f.getByRole('button', { name: 'Advanced rules' }).click();
  for (const name of ['First', 'Second', 'Third']) {
    await f.getByRole('button', { name: 'Add rule' }).click();
    await page.keyboard.type(name); // 'Add rule' focuses the new rule's Name
  }

  // Rule 1 goes: the rule after it (now Rule 1) takes the focus.
  await rule(page, 1).getByRole('button', { name: 'Remove Rule 1' }).focus();
  await page.keyboard.press('Enter');
  await expect(rule(page, 3)).toHaveCount(0);
  await expect(rule(page, 1).getByLabel('Name')).toBeFocused();
  await expect(rule(page, 1).getByLabel('Name')).toHaveValue('Second');

  // The last rule goes: the one before it.
  await rule(page, 2).getByRole('button', { name: 'Remove Rule 2' }).focus();
  await page.keyboard.press('Enter');
  await expect(rule(page, 2)).toHaveCount(0);
  await expect(rule(page, 1).getByLabel('Name')).toBeFocused();
  await expect(rule(page, 1).getByLabel('Name')).toHaveValue('Second');

  // No rule left: 'Add rule'.
  await rule(page, 1).getByRole('button', { name: 'Remove Rule 1' }).focus();
  await page.keyboard.press('Enter');
  await expect(rule(page, 1)).toHaveCount(0);
  await expect(f.getByRole('button', { name: 'Add rule' })).toBeFocused();
});

test('Advanced rules opens on a submit with errors in it, and still collapses and expands', async ({
  page,
}) => {
  await page.goto('/rulesets');
  const f = form(page);
  const toggle = f.getByRole('button', { name: 'Advanced rules' });
  const minSpend = f.getByLabel('Minimum Spend');
  await toggle.click();
  await minSpend.fill('-5');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  // The browser's check finds the error in the closed section: it opens, the message seen.
  await f.getByRole('button', { name: 'Create Ruleset' }).click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(minSpend).toHaveAttribute('aria-invalid', 'true');
  await expect(minSpend).toBeVisible();

  // With the error still there, the toggle works both ways.
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(minSpend).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(minSpend).toBeVisible();

  // Submitting again while closed opens it again.
  await toggle.click();
  await f.getByRole('button', { name: 'Create Ruleset' }).click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');

  // The server's message for a field of the section opens it too.
  await minSpend.fill('5');
  await toggle.click();
  await page.route('**/api/v1/rulesets', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          json: {
            message: 'Validation failed',
            code: 'VALIDATION_ERROR',
            details: [{ field: 'body.config.minSpend', message: 'Minimum Spend is too high' }],
          },
        })
      : route.fallback(),
  );
  await f.getByRole('button', { name: 'Create Ruleset' }).click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(f.getByText('Minimum Spend is too high')).toBeVisible();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('a rule can target every POS key, beyond the list API’s 200 a page', async ({ page, api }) => {
  test.slow();
  // POS keys are global: these are this test's own, named to sort together; the last one by name has at
  // least 200 keys before it, so a single page of 200 never holds it.
  const tag = uniqueName('Store');
  const names = Array.from({ length: 201 }, (_, i) => `${tag} ${String(i).padStart(3, '0')}`);
  const queue = [...names];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        await createPosKey(api, { name });
      }
    }),
  );
  const last = names.at(-1)!;

  await page.goto('/rulesets');
  const f = form(page);
  await f.getByRole('button', { name: 'Advanced rules' }).click();
  await f.getByRole('button', { name: 'Add rule' }).click();
  const stores = rule(page, 1).getByRole('group', { name: 'Stores' });
  await expect(stores.getByRole('checkbox', { name: last, exact: true })).toBeVisible();
  await expect(stores.getByRole('checkbox', { name: tag })).toHaveCount(201);

  await rule(page, 1).getByLabel('Name').fill(uniqueName('Far store'));
  await rule(page, 1).getByLabel('Percent').fill('7');
  await stores.getByRole('checkbox', { name: last, exact: true }).check();
  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/rulesets'),
  );
  await f.getByRole('button', { name: 'Create Ruleset' }).click();
  const ruleset = (await (await created).json()) as Ruleset;
  try {
    // A draft (no Active From): it never earns; its details name the store, not its shortened id.
    expect(ruleset.status).toBe('Draft');
    await page.getByLabel('Search rulesets').fill(String(ruleset.version));
    await page.getByRole('button', { name: String(ruleset.version), exact: true }).click();
    const details = page.getByRole('dialog', { name: `Ruleset Version ${ruleset.version}`, exact: true });
    const cells = details.getByRole('table', { name: 'Rules' }).getByRole('row').nth(1).getByRole('cell');
    await expect(cells.nth(4)).toHaveText(last);
  } finally {
    await expectJson(await api.post(`/api/v1/rulesets/${ruleset.id}/retire`));
  }
});
