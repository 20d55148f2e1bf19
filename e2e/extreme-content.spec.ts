import type { Ruleset } from '@loyalty/contracts';
import type { Page } from '@playwright/test';
import {
  differ,
  expectNoAxeViolations,
  figureLayout,
  pageFits,
  SHOTS,
  shoot,
  shownWhole,
  style,
} from './support/extreme-content';
import { expect, expectJson, test, uniqueName } from './support/fixtures';
import { addPoints, createAccount, issueCard } from './support/loyalty-api';
import { createPosKey } from './support/pos-api-helpers';
import { addExcludedSku, createRuleset, lowVersion } from './support/programme-api';

// Content at its limits against the layout (review h147): balances of billions, a client ID of an e-mail
// address or 100 characters, SKUs sharing a long prefix, a rule of 1,000 SKUs, right-to-left names, long
// e-mail usernames, a 1,500-character webhook URL, and the console in forced colours (Windows High Contrast).
test.describe.configure({ mode: 'parallel' });

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

/** A figure of the client page's summary: the first <dd> after its <dt>. */
const figure = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Account' })
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');

/** Hebrew and Arabic: their beginning is at the right, where a left-to-right ellipsis cut it. */
const HEBREW = 'סניף הדגל של רשת השיווק בקניון הגדול בצפון הארץ ליד התחנה המרכזית';
const ARABIC = 'العميل المميز في برنامج الولاء لمتاجر المدينة الكبرى';

test('a balance never breaks inside its number and stays in its card (1024 and 1280 px)', async ({
  page,
  api,
}) => {
  const small = await createAccount(api);
  await addPoints(api, small.id, 123_456.78);
  const large = await createAccount(api);
  // 5,999,999,999.95 pts: a manual credit is at most 1,000,000,000.
  for (let i = 0; i < 5; i++) await addPoints(api, large.id, 999_999_999.99);
  await addPoints(api, large.id, 1_000_000_000);

  for (const [account, text] of [
    [small, '123,456.78 pts'],
    [large, '5,999,999,999.95 pts'],
  ] as const) {
    for (const width of [1024, 1280]) {
      await page.setViewportSize({ width, height: 768 });
      await page.goto(`/clients/${account.id}`);
      for (const label of ['Balance', 'Available']) {
        const layout = await figureLayout(figure(page, label));
        expect(layout.text).toBe(text);
        expect({ label, width, ...layout }).toEqual({ label, width, text, lines: 1, overflow: 0 });
      }
      if (width === 1024) {
        await page.screenshot({ path: `${SHOTS}/client-summary-1024-${account.id.slice(0, 4)}.png` });
      }
    }
  }
  await shoot(page, 'client-summary', async () => {
    await page.goto(`/clients/${large.id}`);
    await expect(figure(page, 'Balance')).toHaveText('5,999,999,999.95 pts');
  });
});

test('a client ID of an e-mail address or 100 characters wraps in the heading: no sideways scroll', async ({
  page,
  api,
}) => {
  const email = await createAccount(api, `christopher.williamson.${uniqueName('x')}@gmail.com`);
  const long = await createAccount(api, `${uniqueName('id')}-${'W'.repeat(100)}`.slice(0, 100));
  for (const [account, width, height] of [
    [email, 320, 640],
    [email, 390, 844],
    [long, 320, 640],
    [long, 1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/clients/${account.id}`);
    await expect(page.getByRole('heading', { level: 1, name: account.clientId })).toBeVisible();
    const fits = await pageFits(page);
    expect({ width, ...fits }).toEqual({
      width,
      scrollWidth: fits.clientWidth,
      clientWidth: fits.clientWidth,
    });
  }
  await shoot(page, 'client-heading', async () => {
    await page.goto(`/clients/${long.id}`);
    await expect(page.getByRole('heading', { level: 1, name: long.clientId })).toBeVisible();
  });
});

test('SKU Exclusions: long SKUs of one family read whole; a long category has its title and direction', async ({
  page,
  api,
}) => {
  const ruleset = await createRuleset(api, { version: lowVersion() });
  const prefix = `APPAREL-WOMENS-OUTERWEAR-PARKA-LONG-HOODED-${uniqueName('S').toUpperCase()}-BLACK-XL`;
  const skus = [`${prefix}-VARIANT-A`, `${prefix}-VARIANT-B`];
  const category = `Women's outerwear, parkas and long hooded winter coats ${uniqueName('cat')}`;
  for (const sku of skus) await addExcludedSku(api, ruleset.id, { sku, category, description: ARABIC });
  const open = async () => {
    await page.goto('/sku-exclusions');
    await chooseRuleset(page, ruleset);
  };
  await open();
  const table = page.getByRole('table', { name: 'Excluded SKUs' });
  for (const sku of skus) {
    const cell = table.getByRole('cell', { name: sku, exact: true });
    await expect(cell).toBeVisible();
    await expect.poll(() => shownWhole(cell.locator('span').first())).toBe(true);
  }
  const categoryText = table.getByTitle(category).first();
  await expect(categoryText).toHaveText(category);
  const description = table.getByTitle(ARABIC).first();
  await expect(description).toHaveCSS('direction', 'rtl');
  await shoot(page, 'sku-exclusions', async () => {
    await open();
    await expect(table.getByRole('cell', { name: skus[1], exact: true })).toBeVisible();
  });
});

async function chooseRuleset(page: Page, ruleset: Ruleset) {
  const chooser = page.getByRole('combobox', { name: 'Ruleset' });
  await expect(chooser).toBeVisible({ timeout: 20_000 });
  if ((await chooser.textContent()) !== `Version ${ruleset.version}`) {
    await chooser.click();
    await page.getByRole('option', { name: new RegExp(`^Version ${ruleset.version}\\b`) }).click();
  }
  await expect(chooser).toHaveText(`Version ${ruleset.version}`);
}

test('ruleset details: a rule of 1,000 SKUs wraps in the dialog, the rest behind "+K more"', async ({
  page,
  api,
}) => {
  const skus = Array.from({ length: 1000 }, (_, i) => `SKU-${String(i).padStart(4, '0')}-${'Q'.repeat(20)}`);
  const version = lowVersion();
  const ruleset = await expectJson<Ruleset>(
    await api.post('/api/v1/rulesets', {
      data: {
        version,
        config: { percent: 5, rules: [{ name: 'Big rule', percent: 10, skus, categories: ['dairy'] }] },
        activeFrom: null,
      },
    }),
  );
  const open = async () => {
    await page.goto('/rulesets');
    await page.getByLabel('Search rulesets').fill(String(ruleset.version));
    await page.getByRole('button', { name: String(ruleset.version), exact: true }).click();
  };
  await open();
  const details = page.getByRole('dialog', { name: `Ruleset Version ${ruleset.version}`, exact: true });
  const rules = details.getByRole('table', { name: 'Rules' });
  await expect(rules).toBeVisible();
  const widths = await rules.evaluate((table) => ({
    table: table.scrollWidth,
    dialog: table.closest('[role=dialog]')!.clientWidth,
  }));
  expect(widths.table).toBeLessThanOrEqual(widths.dialog);
  const more = rules.getByText(/^\+\d[\d,]* more/);
  await expect(more).toBeVisible();
  const last = rules.getByText(skus[999]!, { exact: false });
  await expect(last).toBeHidden();
  // By keyboard: the disclosure takes focus and opens with Enter.
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(last).toBeVisible();
  await expectNoAxeViolations(page, 'ruleset details');
  await shoot(page, 'ruleset-details', async () => {
    await open();
    await expect(more).toBeVisible();
  });
});

test('right-to-left names in cut cells keep their beginning: POS keys, accounts, cards', async ({
  page,
  api,
}) => {
  const tag = uniqueName('rtl');
  const name = `${HEBREW} ${tag}`;
  await createPosKey(api, { name, address: `${HEBREW} 12, ${tag}` });
  await page.goto('/pos-keys');
  await page.getByLabel('Search POS keys').fill(tag);
  const posKeys = page.getByRole('table', { name: 'POS keys' });
  const nameText = posKeys.getByTitle(name);
  await expect(nameText).toBeVisible();
  await expect(nameText).toHaveCSS('direction', 'rtl');
  await expect(posKeys.getByTitle(`${HEBREW} 12, ${tag}`)).toHaveCSS('direction', 'rtl');
  await shoot(page, 'pos-keys-rtl', async () => {
    await page.goto(`/pos-keys?search=${encodeURIComponent(tag)}`);
    await expect(nameText).toBeVisible();
  });

  const clientId = `${ARABIC} ${tag}`.slice(0, 100);
  const account = await createAccount(api, clientId);
  const card = await issueCard(api, account.id);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/accounts');
  await page.getByLabel('Search accounts').fill(tag);
  const inAccounts = page.getByRole('table', { name: 'Accounts' }).getByTitle(clientId);
  await expect(inAccounts).toBeVisible();
  await expect(inAccounts).toHaveCSS('direction', 'rtl');

  // Cards are searched by number or account: the card's own row, opened from the address.
  await page.goto(`/cards?search=${card.number}`);
  const inCards = page.getByRole('table', { name: 'Cards' }).getByRole('link', { name: clientId });
  await expect(inCards).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Cards' })
      .locator('[data-slot="id-cell-value"]', { has: page.getByRole('link', { name: clientId }) }),
  ).toHaveCSS('direction', 'rtl');
  await shoot(page, 'cards-rtl', async () => {
    await page.goto(`/cards?search=${card.number}`);
    await expect(inCards).toBeVisible();
  });
});

test('Users and Audit Logs: two long e-mail usernames are told apart (wrapped, whole)', async ({
  page,
  createUser,
  apiAs,
}) => {
  const tag = uniqueName('u');
  const base = `christopher.williamson.${tag}`;
  const users = [await createUser('MANAGER', { username: `${base}.a@gmail.com` })];
  users.push(await createUser('MANAGER', { username: `${base}.b@gmail.com` }));
  for (const user of users) await createAccount(await apiAs(user));

  await page.goto('/users');
  await page.getByLabel('Search users').fill(base);
  const usersTable = page.getByRole('table', { name: 'Users' });
  for (const user of users) {
    const text = usersTable.getByText(user.username, { exact: true });
    await expect(text).toBeVisible();
    await expect.poll(() => shownWhole(text)).toBe(true);
  }
  await shoot(page, 'users', async () => {
    await page.goto(`/users?search=${encodeURIComponent(base)}`);
    await expect(usersTable.getByText(users[1]!.username, { exact: true })).toBeVisible();
  });

  await page.goto('/audit');
  await page.getByLabel('Search audit logs').fill(base);
  const audit = page.getByRole('table', { name: 'Audit logs' });
  for (const user of users) {
    const text = audit.getByText(user.username, { exact: true }).first();
    await expect(text).toBeVisible();
    await expect.poll(() => shownWhole(text)).toBe(true);
  }
  await shoot(page, 'audit', async () => {
    await page.goto(`/audit?search=${encodeURIComponent(base)}`);
    await expect(audit.getByText(users[1]!.username, { exact: true }).first()).toBeVisible();
  });
});

test('forced colours: no item looks focused, the current page, the chosen range and the bar show', async ({
  page,
}) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto('/');
  // The dashboard as it settles (its chunks loaded, the shell no longer re-rendered), then measured.
  const range = page.getByRole('radiogroup', { name: 'Chart range' });
  await expect(range).toBeVisible();
  const current = page.getByRole('link', { name: 'Dashboard', exact: true });
  await expect(current).toHaveAttribute('aria-current', 'page');
  const other = page.getByRole('link', { name: 'Accounts', exact: true });
  await expect(other).toHaveCSS('outline-style', 'none');
  await expect.poll(() => differ(current, other, 'background-color')).toBe(true);

  const checked = range.getByRole('radio', { checked: true });
  const unchecked = range.getByRole('radio', { checked: false }).first();
  await expect.poll(() => differ(checked, unchecked, 'background-color')).toBe(true);

  const bar = page.getByRole('progressbar', { name: 'Bonus Utilization' });
  await expect(bar).toBeVisible();
  const fill = bar.locator('div');
  await expect.poll(() => differ(fill, bar, 'background-color')).toBe(true);
  expect(await style(fill, 'background-color')).not.toMatch(/^rgba\(\d+, \d+, \d+, 0\)$|transparent/);

  // The chart's legend keys keep their series' colours (told apart from each other).
  const keys = page.locator('[data-slot=chart] ul li > span');
  await expect(keys.first()).toBeVisible();
  const colours = await keys.evaluateAll((spans) => spans.map((s) => getComputedStyle(s).backgroundColor));
  expect(new Set(colours).size).toBe(colours.length);

  // A select's highlighted option (the range's select on a phone) is marked; no other looks focused.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('combobox', { name: 'Chart range' }).click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  await page.keyboard.press('ArrowDown');
  const highlighted = page.locator('[role=option]:focus');
  await expect(highlighted).toHaveCount(1);
  await expect(page.locator('[role=option]:not(:focus)').first()).toHaveCSS('outline-style', 'none');
  // Against the list's own background (Canvas): a focused item's accent background is painted over with it.
  await expect.poll(() => differ(highlighted, page.getByRole('listbox'), 'background-color')).toBe(true);
  await page.screenshot({ path: `${SHOTS}/forced-select-390.png` });
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });

  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await page.reload();
    await expect(bar).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/forced-dashboard-1280-${theme}.png`, fullPage: true });
  }
  await page.evaluate(() => localStorage.removeItem('theme'));
});

test('deliveries: a 1,500-character endpoint URL is clamped; the list and its pager stay in reach', async ({
  page,
  api,
}) => {
  const path = `${uniqueName('hook')}/${'receiver/'.repeat(170)}`.slice(0, 1_480);
  const url = `http://127.0.0.1:9/${path}`;
  await expectJson(await api.post('/api/v1/webhooks', { data: { url, eventTypes: ['points.expired'] } }));
  const open = async () => {
    await page.goto('/webhooks');
    await page.getByRole('button', { name: `Actions for ${url}` }).click();
    await page.getByRole('menuitem', { name: 'View deliveries', exact: true }).click();
  };
  await page.setViewportSize({ width: 390, height: 600 });
  await open();
  const drawer = page.getByRole('dialog', { name: 'Deliveries' });
  const next = drawer.getByRole('button', { name: /Next/ });
  await expect(next).toBeVisible();
  const box = (await next.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(600);
  // The whole URL: in the description's title (and the dialog's description), and a copy button away.
  await expect(drawer.getByTitle(url)).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Copy endpoint URL' })).toBeVisible();
  await shoot(page, 'deliveries', async () => {
    await open();
    await expect(next).toBeVisible();
  });
});
