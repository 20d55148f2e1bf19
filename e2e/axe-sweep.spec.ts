import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { axeScan } from './support/axe';
import { expect, test } from './support/fixtures';
import { createCardholder } from './support/loyalty-api';
import { createPosKey, ensureRulesetInForce, posAccrual } from './support/pos-api-helpers';

/**
 * Issue 16: axe on every screen in both themes, and again with each of the screen's dialogs, menus and
 * select popovers open — the screen toolbar's (Create/Add, filters, columns), the first row's actions
 * menu and every dialog its items open. Dialogs are closed with Escape, never confirmed, so the sweep
 * changes nothing; menu items that act at once (no dialog) are not clicked.
 */
test.describe.configure({ mode: 'parallel' });

const themes = ['light', 'dark'] as const;
// Items that act (or reveal a secret, an audited read) without a dialog first.
const ACTS_AT_ONCE = /^(Activate|Enable|View API Key|Reveal secret|Send test event|Copy.*|Export.*)$/;
const POPUP = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]';

interface Screen {
  path: string;
  title: string;
  /** Brings the screen to a state with the sweep's own rows in it. */
  prepare?: (page: Page, own: Own) => Promise<void>;
  /** Dialogs opened another way than by Create/Add or a row menu. */
  extra?: (page: Page, sweep: Sweep) => Promise<void>;
}

/** The screen's table filtered to one row by its search box. */
async function searchFor(page: Page, label: string, text: string) {
  await page.getByLabel(label).fill(text);
  await expect(page.locator('main tbody tr')).toHaveCount(1);
}

interface Own {
  accountId: string;
  clientId: string;
  cardNumber: string;
  posKeyName: string;
  /** The sweep's till, active, under a ruleset in force. */
  posApiKey: string;
  username: string;
  /** The admin's API, for a screen whose rows its prepare makes. */
  api: APIRequestContext;
}

const screens: Screen[] = [
  { path: '/', title: 'Dashboard' },
  {
    path: '/users',
    title: 'User Management',
    // Another user's row: the menu offers Delete (never on your own row).
    prepare: (page, own) => searchFor(page, 'Search users', own.username),
  },
  { path: '/settings', title: 'Settings' },
  {
    path: '/audit',
    title: 'Audit Logs',
    extra: (page, sweep) =>
      sweep.open(
        page.locator('main tbody tr').first().getByRole('button', { name: 'View Details' }),
        '/audit "View Details" dialog',
      ),
  },
  {
    path: '/rulesets',
    title: 'Rulesets',
    extra: async (page, sweep) => {
      // A ruleset's details with a backtest's answer in it (numbers, chart, table), then the create form's
      // advanced rules with one rule added.
      await page.locator('main tbody tr').first().getByRole('button', { name: /^\d+$/ }).click();
      const details = page.getByRole('dialog');
      await details.getByRole('button', { name: 'Run Backtest' }).click();
      await expect(details.getByRole('button', { name: 'Run Backtest' })).toBeEnabled();
      await expect(details.locator('[aria-busy="true"]')).toHaveCount(0);
      await sweep.scan('/rulesets details dialog with a backtest', 'dialog');
      await sweep.close();
      await page.getByRole('button', { name: 'Advanced rules' }).click();
      await page.getByRole('button', { name: 'Add rule' }).click();
      await sweep.scan('/rulesets advanced rules with a rule');
    },
  },
  { path: '/sku-exclusions', title: 'SKU Exclusions' },
  {
    path: '/accounts',
    title: 'Accounts',
    prepare: async (page, own) => {
      await page
        .getByRole('searchbox')
        .or(page.getByPlaceholder(/search/i))
        .first()
        .fill(own.clientId);
      await expect(page.locator('main tbody tr')).toHaveCount(1);
    },
  },
  {
    path: '/cards',
    title: 'Loyalty Cards',
    prepare: (page, own) => searchFor(page, 'Search cards', own.cardNumber),
    extra: async (page, sweep) => {
      await page.locator('main tbody tr').first().getByRole('checkbox').check();
      await sweep.open(
        page.getByRole('button', { name: 'Block selected' }),
        '/cards "Block selected" dialog',
      );
    },
  },
  {
    path: '/clients',
    title: 'Client Lookup',
    prepare: async (page, own) => {
      await page.getByRole('textbox').first().fill(own.clientId);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect(page.getByText(own.clientId).first()).toBeVisible();
    },
  },
  // The client page of the sweep's own account: ':account' and ':client' are filled in.
  { path: '/clients/:account', title: ':client' },
  { path: '/operations', title: 'Operations History' },
  {
    path: '/reports',
    title: 'Finance',
    // Points earned today, so the chart is drawn; the report loaded: table and chart are scanned, not skeletons.
    prepare: async (page, own) => {
      await posAccrual(own.api, own.posApiKey, {
        operationId: `axe-${own.posApiKey.slice(0, 12)}`,
        cardNumber: own.cardNumber,
        receipt: { receiptId: `axe-${own.cardNumber}`, items: [{ sku: 'AXE', quantity: 1, price: 100 }] },
      });
      await page.reload();
      await expect(page.locator('main tbody tr')).toHaveCount(30);
      await expect(page.getByRole('img', { name: /Points flow chart/ })).toBeVisible();
    },
  },
  {
    path: '/imports',
    title: 'Import',
    // A checked file with an error row, so the report and its table are scanned too.
    prepare: async (page) => {
      await page.locator('input[type="file"]').setInputFiles({
        name: 'sweep.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('clientId,points\nSWEEP-IMPORT,1.234\n'),
      });
      await page.getByRole('button', { name: 'Check file' }).click();
      await expect(page.getByRole('region', { name: 'Check report' }).getByRole('table')).toBeVisible();
    },
  },
  {
    path: '/pos-keys',
    title: 'POS Keys',
    prepare: (page, own) => searchFor(page, 'Search POS keys', own.posKeyName),
  },
  { path: '/pos-api', title: 'POS API' },
  {
    path: '/webhooks',
    title: 'Webhooks',
    // An endpoint with a delivery (to a closed port: it fails), so the row menu and its drawer have content.
    prepare: async (page, own) => {
      const created = await own.api.post('/api/v1/webhooks', {
        data: { url: 'http://127.0.0.1:9/axe-sweep', eventTypes: ['points.expired'] },
      });
      const { id } = (await created.json()) as { id: string };
      expect((await own.api.post(`/api/v1/webhooks/${id}/test`)).status()).toBe(201);
      await page.reload();
      await expect(page.locator('main tbody tr').first()).toBeVisible();
    },
  },
];

class Sweep {
  readonly problems: string[] = [];
  /** Every state scanned, for the report. */
  readonly states: string[] = [];
  constructor(
    private readonly page: Page,
    private readonly theme: string,
  ) {}

  /**
   * The whole page, or with a popup open: `region` is off then (menus, lists and dialogs are portalled
   * outside the landmarks by design), and a select's list (Radix Select is always modal: it hides the
   * page behind it and traps focus) is checked on its own, the page behind having been checked closed.
   */
  async scan(state: string, popup?: 'dialog' | 'menu' | 'listbox') {
    // axeScan waits for a popup's fade and zoom to end first (support/axe.ts).
    // Only Swagger UI's own markup, inside its frame, is left out (see pos-api.spec.ts).
    const results = await axeScan(this.page, {
      exclude: ['iframe[title="POS API documentation"]'],
      disableRules: popup ? ['region'] : [],
      include: popup === 'listbox' ? '[role="listbox"]' : undefined,
    });
    this.states.push(state);
    for (const violation of results.violations) {
      const targets = violation.nodes.map((node) => node.target.join(' ')).join(', ');
      this.problems.push(`${this.theme} ${state}: ${violation.id} (${violation.help}) at ${targets}`);
    }
  }

  private popup() {
    return this.page.locator(POPUP).filter({ visible: true }).last();
  }

  /** Opens what `trigger` opens, scans it, and closes it with Escape. */
  async open(trigger: Locator, state: string) {
    await trigger.click();
    await expect(this.popup()).toBeVisible();
    const role = await this.popup().getAttribute('role');
    await this.scan(state, role === 'listbox' ? 'listbox' : role === 'menu' ? 'menu' : 'dialog');
    await this.close();
  }

  async close() {
    await this.page.keyboard.press('Escape');
    await expect(this.page.locator(POPUP).filter({ visible: true })).toHaveCount(0);
  }

  /** A row's actions menu, then each dialog its items open. */
  async rowMenu(trigger: Locator, state: string) {
    await trigger.click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    await this.scan(`${state} menu`, 'menu');
    const names = await menu
      .getByRole('menuitem')
      .evaluateAll((items) =>
        items
          .filter((i) => i.getAttribute('aria-disabled') !== 'true')
          .map((i) => i.textContent?.trim() ?? ''),
      );
    await this.close();
    for (const name of names.filter((n) => !ACTS_AT_ONCE.test(n))) {
      await trigger.click();
      await this.page.getByRole('menuitem', { name, exact: true }).click();
      await expect(this.page.getByRole('dialog').or(this.page.getByRole('alertdialog'))).toBeVisible();
      await this.scan(`${state} "${name}" dialog`, 'dialog');
      await this.close();
    }
  }
}

async function sweepScreen(page: Page, sweep: Sweep, screen: Screen, own: Own) {
  await page.goto(screen.path.replace(':account', own.accountId));
  const title = screen.title.replace(':client', own.clientId);
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
  await screen.prepare?.(page, own);
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
  await sweep.scan(screen.path);

  const main = page.locator('main');
  const outsideRows = (locator: Locator) =>
    locator.filter({ visible: true }).and(main.locator(':not(tbody *)'));
  // Create/Add: the screen's own dialogs.
  const adders = outsideRows(
    main.locator('button:not([type="submit"])').filter({ hasText: /^\s*(Add|Create) / }),
  );
  for (const adder of await adders.all()) {
    await sweep.open(adder, `${screen.path} "${await adder.innerText()}" dialog`);
  }
  // Filters, page size and the like (selects), and toolbar menus such as Columns.
  const popovers = outsideRows(main.locator('button[role="combobox"], [aria-haspopup="menu"]'));
  for (const [index, trigger] of (await popovers.all()).entries()) {
    const name = (await trigger.getAttribute('aria-label')) ?? (await trigger.innerText());
    await sweep.open(trigger, `${screen.path} popover ${index} "${name}"`);
  }
  // The first row's actions.
  const rowMenu = main.locator('tbody tr').first().locator('[aria-haspopup="menu"]');
  if (await rowMenu.count()) await sweep.rowMenu(rowMenu.first(), `${screen.path} row`);
  await screen.extra?.(page, sweep);
}

for (const theme of themes) {
  for (const screen of screens) {
    test(`${theme}: ${screen.path} has no axe violations, with each dialog, menu and popover open`, async ({
      page,
      signIn,
      api,
      createUser,
    }) => {
      test.slow(); // a dozen axe runs on a shared two-core machine
      // A ruleset in force: Rulesets has a row to retire, SKU Exclusions a ruleset to add to.
      await ensureRulesetInForce(api);
      const { account, card } = await createCardholder(api);
      const posKey = await createPosKey(api);
      const user = await createUser('VIEWER');
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await signIn(page);
      const sweep = new Sweep(page, theme);
      await sweepScreen(page, sweep, screen, {
        accountId: account.id,
        clientId: account.clientId,
        cardNumber: card.number,
        posKeyName: posKey.name,
        posApiKey: posKey.apiKey,
        username: user.username,
        api,
      });
      test.info().annotations.push({ type: 'scanned', description: sweep.states.join(' | ') });
      expect(sweep.problems).toEqual([]);
    });
  }

  test(`${theme}: at 390 px the navigation sheet and the chart range select have no axe violations`, async ({
    page,
    signIn,
  }) => {
    test.slow();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
    await signIn(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const sweep = new Sweep(page, theme);
    await sweep.scan('/ at 390 px');
    await sweep.open(page.getByRole('button', { name: 'Toggle sidebar' }), 'navigation sheet');
    await sweep.open(page.getByRole('combobox', { name: 'Chart range' }), 'chart range select');
    expect(sweep.problems).toEqual([]);
  });
}
