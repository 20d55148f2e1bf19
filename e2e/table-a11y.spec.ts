import type { Locator, Page } from '@playwright/test';
import { chooseOption, expect, test, toast, uniqueName } from './support/fixtures';
import { createAccount, issueCard } from './support/loyalty-api';

// Keyboard review of the tables: a focused control is never under the sticky actions column (WCAG 2.4.11),
// a new result is said once in a status message (4.1.3), and Tab is not held by a toast.
test.describe.configure({ mode: 'parallel' });

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

/**
 * The focused control's share (0–100) that shows, sampled with elementFromPoint: a point counts as hidden when
 * a sticky cell of another column is on top of it, or when it lies outside its table's scrolling container.
 * Other overlays (a tooltip on its way out) are not what this measures. Null when focus is not in a table.
 */
function focusedShare(page: Page) {
  return page.evaluate(() => {
    const control = document.activeElement;
    const container = control?.closest<HTMLElement>('[data-slot=table-container]');
    if (!control || !container || control === container) return null;
    const view = container.getBoundingClientRect();
    const box = control.getBoundingClientRect();
    const own = control.closest('td, th');
    let shown = 0;
    let all = 0;
    for (let x = box.left + 0.5; x < box.right; x += 1) {
      for (let y = box.top + 0.5; y < box.bottom; y += 2) {
        all++;
        if (x < view.left || x > view.left + container.clientLeft + container.clientWidth) continue;
        const cell = document.elementFromPoint(x, y)?.closest('td, th');
        const covered = cell && cell !== own && getComputedStyle(cell).position === 'sticky';
        if (!covered) shown++;
      }
    }
    const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? control.tagName;
    return { name, share: Math.round((100 * shown) / all) };
  });
}

/** Tabs from `start` through `stops` Tab stops; every one in a table is named with its share, if not all of it shows. */
async function hiddenStops(page: Page, start: Locator, stops: number): Promise<string[]> {
  await start.focus();
  const hidden: string[] = [];
  let inTable = 0;
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab');
    let focused = await focusedShare(page);
    if (focused === null) continue;
    if (focused.share < 100) {
      // The browser may still be finishing its own scroll to the control: ask again while it settles.
      const again = async () => {
        focused = (await focusedShare(page)) ?? focused;
        return focused?.share;
      };
      await expect
        .poll(again)
        .toBe(100)
        .catch(() => {});
    }
    inTable++;
    if (focused.share < 100) hidden.push(`${focused.name} ${focused.share}%`);
  }
  expect(inTable, 'Tab stops inside a table').toBeGreaterThan(2);
  return hidden;
}

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Tab through a table shows every focused control whole, clear of the sticky actions column', async ({
    page,
    api,
  }) => {
    const account = await createAccount(api, uniqueName('focus'));
    const card = await issueCard(api, account.id);
    const problems: string[] = [];
    for (const [path, label] of [
      ['/accounts', 'Accounts'],
      ['/users', 'Users'],
      ['/pos-keys', 'POS keys'],
      [`/cards?search=${card.number}`, 'Cards'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('table', { name: label }).locator('tbody tr').first()).toBeVisible();
      await expect(page.locator('[data-testid=skeleton-row]')).toHaveCount(0);
      const region = page.getByRole('region', { name: `${label} (scrolls sideways)` });
      // The headers and the first rows: every sortable header, the copy buttons and the actions of a row.
      for (const stop of await hiddenStops(page, region, 12)) problems.push(`${path}: ${stop}`);
    }

    // A dialog's table: Accounts → View Cards.
    await page.goto(`/accounts?search=${account.clientId}`);
    await page.getByRole('button', { name: `Actions for ${account.clientId}` }).click();
    await page.getByRole('menuitem', { name: 'View Cards' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(card.number, { exact: true })).toBeVisible();
    // Measured once the dialog has stopped zooming in: boxes taken mid-animation are scaled.
    await dialog.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    // From its Card Number header on: beside the 200 px of Block and Reissue that stay on the right, 106 px are
    // left at this width, less than that header's button (129 px); it shows its start and all but its sort icon.
    const cardNumber = dialog.getByRole('button', { name: 'Card Number', exact: true });
    for (const stop of await hiddenStops(page, cardNumber, 4)) problems.push(`View Cards: ${stop}`);

    expect(problems).toEqual([]);
  });
});

/** Records every text the table's status region takes from now on. */
async function listen(status: Locator) {
  await status.evaluate((element) => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => said.push(element.textContent ?? '')).observe(element, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return () => status.page().evaluate(() => (window as unknown as { said: string[] }).said);
}

test('a search, a page and a filter are each said once in a status message when their result arrives', async ({
  page,
  api,
}) => {
  const prefix = uniqueName('said');
  const accounts = [];
  for (let i = 0; i < 11; i++) accounts.push(await createAccount(api, `${prefix}-${i}`));

  await page.goto('/accounts');
  await expect(page.getByRole('table', { name: 'Accounts' }).locator('tbody tr').first()).toBeVisible();
  await expect(page.locator('[data-testid=skeleton-row]')).toHaveCount(0);
  const table = page.getByRole('table', { name: 'Accounts' });
  const status = page.getByTestId('table-status');
  await expect(status).toHaveAttribute('role', 'status');
  // The first page is the screen's own: nothing said.
  await expect(status).toHaveText('');
  const said = await listen(status);
  const search = page.getByLabel('Search accounts');

  await search.fill(prefix);
  await expect(table.locator('tbody tr')).toHaveCount(10);
  await expect.poll(said).toEqual(['11 results, page 1 of 2']);

  // A refetch that brings the same rows says nothing.
  const refetched = page.waitForResponse((r) => r.url().includes('/api/v1/accounts?'));
  await page.getByRole('button', { name: 'Refresh' }).click();
  await refetched;
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect.poll(said).toEqual(['11 results, page 1 of 2', '11 results, page 2 of 2']);

  await search.fill(accounts[3]?.clientId ?? '');
  await expect
    .poll(said)
    .toEqual(['11 results, page 1 of 2', '11 results, page 2 of 2', '1 result, page 1 of 1']);
  await search.fill(uniqueName('nobody'));
  await expect(table).toContainText('No results.');
  await expect
    .poll(said)
    .toEqual(['11 results, page 1 of 2', '11 results, page 2 of 2', '1 result, page 1 of 1', 'No results']);
  await expect(status).toHaveText('No results');
});

test('/operations: a status filter is said once its list arrives', async ({ page }) => {
  await page.goto('/operations');
  const table = page.getByRole('table', { name: 'Operations' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(page.locator('[data-testid=skeleton-row]')).toHaveCount(0);
  const said = await listen(page.getByTestId('table-status'));

  await chooseOption(page, page.getByRole('combobox', { name: 'Filter by status' }), 'failed');
  await expect.poll(said).toHaveLength(1);
  expect((await said())[0]).toMatch(/^(No results|\d+ results?, page 1 of \d+)$/);
  // Nothing else comes for it: the next change is the next message.
  await page.getByLabel('Search operations').fill(uniqueName('nothing'));
  await expect.poll(async () => (await said()).slice(1)).toEqual(['No results']);
});

test('Tab past the last control with a toast showing goes on instead of bouncing back; Alt+T still reaches it', async ({
  page,
  api,
}) => {
  const account = await createAccount(api, uniqueName('toast'));
  await issueCard(api, account.id);
  await page.goto('/clients');
  await page.getByLabel('Card number, client ID or account ID').fill(account.clientId);
  await page.getByRole('button', { name: 'Search' }).click();
  const loaded = toast(page, 'Client data loaded successfully');
  // The pointer on the toast holds it (sonner pauses its timer), however slow the machine.
  await loaded.hover();
  await expect(page.getByRole('table').first()).toContainText(account.clientId);

  const last = await page.evaluateHandle(() => {
    const stops = [
      ...document.querySelectorAll<HTMLElement>('a[href], button, input, [tabindex="0"]'),
    ].filter(
      (el) =>
        !el.closest('[data-sonner-toaster]') &&
        el.tabIndex >= 0 &&
        !el.hasAttribute('disabled') &&
        el.checkVisibility(),
    );
    return stops[stops.length - 1];
  });
  await last.asElement()?.focus();
  const focusedIsLast = () => page.evaluate((el) => document.activeElement === el, last);
  const inToasts = () =>
    page.evaluate(() => document.activeElement?.closest('[data-sonner-toaster]') != null);

  await page.keyboard.press('Tab');
  expect(await inToasts()).toBe(true);
  await page.keyboard.press('Tab');
  // Past the end of the page: not back on the control Tab came from.
  expect(await inToasts()).toBe(false);
  expect(await focusedIsLast()).toBe(false);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();

  // Sonner's hotkey: to the toasts and, on leaving them, back to where the user was.
  await last.asElement()?.focus();
  await page.keyboard.press('Alt+KeyT');
  expect(await inToasts()).toBe(true);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await focusedIsLast()).toBe(true);
  await expect(loaded).toBeVisible();

  // A toast reached by Tab that goes while it has focus (the pointer off it, its timer runs out) hands focus
  // back to where it came from, not to <body>.
  await page.keyboard.press('Tab');
  expect(await inToasts()).toBe(true);
  await page.mouse.move(0, 0);
  await expect(loaded).toBeHidden();
  await expect.poll(focusedIsLast).toBe(true);
});

for (const width of [1280, 390]) {
  test(`a sort header's focus ring shows whole inside its header cell at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/users');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    // By keyboard, so the ring is the :focus-visible one.
    await page.getByLabel('Search users').focus();
    const sort = table.getByRole('button', { name: 'Username' });
    for (let i = 0; i < 10 && !(await sort.evaluate((b) => b === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await expect(sort).toBeFocused();
    // The ring's box (outline width plus offset around the button) inside the header cell, which hides
    // overflow: the button sat at the cell's left edge and its ring was cut there.
    const overhang = await sort.evaluate((button) => {
      const style = getComputedStyle(button);
      const ring = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
      const b = button.getBoundingClientRect();
      const th = (button.closest('th') as HTMLElement).getBoundingClientRect();
      return {
        left: Math.max(0, th.left - (b.left - ring)),
        right: Math.max(0, b.right + ring - th.right),
        top: Math.max(0, th.top - (b.top - ring)),
        bottom: Math.max(0, b.bottom + ring - th.bottom),
        visible: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0,
      };
    });
    expect(overhang).toEqual({ left: 0, right: 0, top: 0, bottom: 0, visible: true });
  });
}

test('the selection count is said when the user changes the selection, not when a search changes the rows', async ({
  page,
  api,
}) => {
  const account = await createAccount(api);
  const first = await issueCard(api, account.id);
  const second = await issueCard(api, account.id);
  await page.goto('/cards');
  const table = page.getByRole('table', { name: 'Cards' });
  await expect(table.locator('tbody tr:not([data-testid=skeleton-row])').first()).toBeVisible();
  // Live regions other than the table's own status message (which says the new result).
  const liveTexts = () =>
    page
      .locator(
        '[aria-live]:not([data-testid=table-status]):not([data-sonner-toaster]):not(section[aria-live])',
      )
      .evaluateAll((regions) => regions.map((region) => region.textContent?.trim()).filter(Boolean));
  await page.getByLabel('Search cards').fill(account.id);
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(page.getByText('0 of 2 rows selected.')).toBeVisible();
  await expect(page.getByTestId('table-status')).toHaveText('2 results, page 1 of 1');
  // The visible count changed with the rows ('0 of 10' to '0 of 2'): that is the result, said once, above.
  expect(await liveTexts()).toEqual([]);
  await table.getByRole('row').filter({ hasText: first.number }).getByRole('checkbox').check();
  await expect(page.getByText('1 of 2 rows selected.')).toBeVisible();
  await expect.poll(liveTexts).toEqual(['1 row selected.']);
  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await expect.poll(liveTexts).toEqual(['2 rows selected.']);
  // A new search clears the selection without a word from the bar (the status message says the result).
  await page.getByLabel('Search cards').fill(second.number);
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(page.getByText('0 of 1 row selected.')).toBeVisible();
  await expect(page.getByTestId('table-status')).toHaveText('1 result, page 1 of 1');
  expect(await liveTexts()).toEqual(['2 rows selected.']);
});
