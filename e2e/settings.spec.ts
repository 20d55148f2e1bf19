import type { Page, Route } from '@playwright/test';
import { expect, seenWith, test, toast } from './support/fixtures';
import { getSettings, saveSettings } from './support/programme-api';

// Spec section 2 "Settings", 5 "Settings", 8 toasts ('Settings saved successfully', 'Save failed',
// 'Failed to load settings'), 9 placeholder hints. Settings are global: tests that would change the card
// limit (which other screens' tests depend on) answer the save from a stub instead of the server.

const SETTINGS = '/api/v1/settings';
const form = (page: Page) => page.getByRole('form', { name: 'Point Holds Configuration' });
const ttl = (page: Page) => page.getByLabel('Holds TTL (minutes)');
const cards = (page: Page) => page.getByLabel('Cards per Account');
// Each settings card has its own 'Save Settings'.
const save = (page: Page) => form(page).getByRole('button', { name: 'Save Settings' });
const expiryForm = (page: Page) => page.getByRole('form', { name: 'Points Expiry' });
const expiryDays = (page: Page) => page.getByLabel('Expiry (days)');
const pendingDays = (page: Page) => page.getByLabel('Pending period (days)');
const neverExpire = (page: Page) => page.getByRole('checkbox', { name: 'Points never expire' });
const timeZone = (page: Page) => page.getByLabel('Time zone', { exact: true });
const summary = (page: Page) =>
  page.locator('[data-slot="card"]').filter({ has: page.getByRole('heading', { name: 'Card Management' }) });

const isSave = (url: string, method: string) => method === 'POST' && new URL(url).pathname === SETTINGS;

function json(route: Route, status: number, body: unknown) {
  return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
}

/** Settings as a programme that has set nothing answers them (reads only; a save goes to the server). */
function serveUnsetSettings(page: Page) {
  return page.route(`**${SETTINGS}`, (route) =>
    route.request().method() === 'GET'
      ? json(route, 200, {
          holds: { ttl_minutes: null },
          cards: { limit_per_account: null },
          points: { expiry_days: null, pending_days: null },
          programme: { currency: 'EUR', timezone: 'UTC' },
        })
      : route.fallback(),
  );
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('shows the form with the stored values, the hints, and the Card Management summary', async ({
  page,
  api,
}) => {
  const stored = await saveSettings(api, { holds: { ttl_minutes: 45 } });
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Point Holds Configuration' })).toBeVisible();
  await expect(ttl(page)).toHaveValue('45');
  await expect(ttl(page)).toHaveAttribute('placeholder', '60');
  await expect(ttl(page)).toHaveAttribute('min', '1');
  await expect(cards(page)).toHaveAttribute('placeholder', '3');
  await expect(cards(page)).toHaveAttribute('min', '0');
  await expect(cards(page)).toHaveValue(String(stored.cards.limit_per_account ?? ''));
  await expect(summary(page)).toContainText('Hold Duration45 minutes');
  const limit = stored.cards.limit_per_account;
  await expect(summary(page)).toContainText(
    limit === null ? 'Cards LimitNo limit set' : `Cards Limit${limit} card`,
  );
});

test("Card Management says 'Not configured' and 'No limit set' when nothing is set", async ({ page }) => {
  await page.route(`**${SETTINGS}`, (route) =>
    route.request().method() === 'GET'
      ? json(route, 200, { holds: { ttl_minutes: null }, cards: { limit_per_account: null } })
      : route.fallback(),
  );
  await page.goto('/settings');
  await expect(summary(page)).toContainText('Hold DurationNot configured');
  await expect(summary(page)).toContainText('Cards LimitNo limit set');
  await expect(ttl(page)).toHaveValue('');
  await expect(cards(page)).toHaveValue('');
});

test("Save sends only the non-empty values and shows 'Settings saved successfully'", async ({
  page,
  api,
}) => {
  const before = await getSettings(api);
  // A save sends only what changed: the TTL typed must differ from the stored one.
  const drawn = 20 + Math.floor(Math.random() * 100);
  const minutes = drawn === before.holds.ttl_minutes ? drawn + 1 : drawn;
  await page.goto('/settings');
  await expect(ttl(page)).not.toBeDisabled();
  await ttl(page).fill(String(minutes));
  await cards(page).fill('');

  const sent = page.waitForRequest((r) => isSave(r.url(), r.method()));
  await save(page).click();
  expect((await sent).postDataJSON()).toEqual({ holds: { ttl_minutes: minutes } });
  await expect(toast(page, 'Settings saved successfully')).toBeVisible();
  await expect(summary(page)).toContainText(`Hold Duration${minutes} minutes`);
  // Saved is no longer edited: the emptied field shows the stored value again and Reset goes away.
  await expect(cards(page)).toHaveValue(
    before.cards.limit_per_account === null ? '' : String(before.cards.limit_per_account),
  );
  await expect(form(page).getByRole('button', { name: 'Reset' })).toHaveCount(0);
  // And the saved field follows the server again: a later change elsewhere shows once settings reload.
  await saveSettings(api, { holds: { ttl_minutes: minutes + 1 } });
  await page.getByRole('button', { name: 'Save Currency' }).click();
  await expect(ttl(page)).toHaveValue(String(minutes + 1));
  await saveSettings(api, { holds: { ttl_minutes: minutes } });

  const after = await getSettings(api);
  expect(after.holds.ttl_minutes).toBe(minutes);
  expect(after.cards.limit_per_account).toBe(before.cards.limit_per_account);
});

test('Cards per Account is sent with the TTL; Save is disabled while saving', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Stored values other than the ones typed (a save sends only what changed), whatever other tests left.
  await page.route(`**${SETTINGS}`, async (route) => {
    if (route.request().method() !== 'POST') {
      const stored = await (await route.fetch()).json();
      return json(route, 200, { ...stored, holds: { ttl_minutes: 60 }, cards: { limit_per_account: 3 } });
    }
    await held;
    return json(route, 200, { holds: { ttl_minutes: 90 }, cards: { limit_per_account: 7 } });
  });
  await page.goto('/settings');
  await expect(ttl(page)).not.toBeDisabled();
  await ttl(page).fill('90');
  await cards(page).fill('7');

  const sent = page.waitForRequest((r) => isSave(r.url(), r.method()));
  await save(page).click();
  expect((await sent).postDataJSON()).toEqual({
    holds: { ttl_minutes: 90 },
    cards: { limit_per_account: 7 },
  });
  await expect(form(page).getByRole('button', { name: 'Saving...' })).toBeDisabled();
  release();
  await expect(toast(page, 'Settings saved successfully')).toBeVisible();
  await expect(summary(page)).toContainText('Cards Limit7 cards per account');
  await expect(save(page)).toBeEnabled();
});

test('a negative value is refused in the browser', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (r) => isSave(r.url(), r.method()) && posts.push(r.url()));
  await page.goto('/settings');
  await expect(ttl(page)).not.toBeDisabled();
  await ttl(page).fill('-5');
  await save(page).click();
  await expect(page.getByText('Holds TTL must be at least 1')).toBeVisible();
  await expect(ttl(page)).toHaveAttribute('aria-invalid', 'true');
  await cards(page).fill('2.5');
  await save(page).click();
  await expect(page.getByText('Cards per Account must be a whole number')).toBeVisible();
  expect(posts).toEqual([]);
});

test("a refused save shows 'Save failed' with the server's message", async ({ page }) => {
  await page.route(`**${SETTINGS}`, (route) =>
    route.request().method() === 'POST'
      ? json(route, 422, { status: 422, message: 'Settings are read-only right now' })
      : route.fallback(),
  );
  await page.goto('/settings');
  await expect(ttl(page)).not.toBeDisabled();
  await ttl(page).fill('30');
  await save(page).click();
  const failed = toast(page, 'Save failed');
  await expect(seenWith(failed, 'Settings are read-only right now')).toBeVisible();
});

test("a load failure shows 'Failed to load settings' with the server's message; nothing saves until they load", async ({
  page,
}) => {
  await page.route(`**${SETTINGS}`, (route) =>
    json(route, 400, { status: 400, message: 'Settings store unavailable', code: 'SETTINGS_DOWN' }),
  );
  await page.goto('/settings');
  const failed = toast(page, 'Failed to load settings');
  await expect(seenWith(failed, 'Settings store unavailable')).toBeVisible();
  const alert = summary(page).getByRole('alert');
  await expect(alert).toContainText('Failed to load settings');
  // The forms would show defaults, not what is stored: a save would overwrite the stored values with them.
  // Two cards save with 'Save Settings'; one each with the others.
  for (const [name, count] of [
    ['Save Settings', 2],
    ['Save Currency', 1],
    ['Save Time Zone', 1],
  ] as const) {
    await expect(page.getByRole('button', { name })).toHaveCount(count);
    for (const button of await page.getByRole('button', { name }).all()) await expect(button).toBeDisabled();
  }
  await expect(ttl(page)).toBeDisabled();
  await expect(timeZone(page)).toBeDisabled();
  // Try again, with the server answering: the stored values in the summary, and the forms usable.
  await page.unroute(`**${SETTINGS}`);
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(summary(page)).toContainText('Hold Duration');
  await expect(ttl(page)).toBeEnabled();
  await expect(save(page)).toBeEnabled();
  await expect(timeZone(page)).toBeEnabled();
});

for (const role of ['VIEWER', 'MANAGER'] as const) {
  test(`${role} sees the values read-only and no Save`, async ({ page, signIn, createUser, api }) => {
    const stored = await getSettings(api);
    await signIn(page, await createUser(role));
    await page.goto('/settings');
    for (const title of ['Point Holds Configuration', 'Points Expiry']) {
      const card = page
        .locator('[data-slot="card"]')
        .filter({ has: page.getByRole('heading', { name: title }) });
      await expect(card.getByText('Only administrators can change these settings.')).toBeVisible();
      await expect(card.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
    }
    await expect(expiryDays(page)).toHaveAttribute('readonly', '');
    await expect(pendingDays(page)).toHaveAttribute('readonly', '');
    await expect(neverExpire(page)).toBeDisabled();
    await expect(ttl(page)).toHaveAttribute('readonly', '');
    await expect(cards(page)).toHaveAttribute('readonly', '');
    await expect(page.getByLabel('Currency')).toHaveAttribute('readonly', '');
    await expect(page.getByRole('button', { name: 'Save Currency' })).toHaveCount(0);
    await expect(timeZone(page)).toHaveAttribute('readonly', '');
    await expect(timeZone(page)).toHaveValue(stored.programme.timezone);
    await expect(page.getByRole('button', { name: 'Save Time Zone' })).toHaveCount(0);
    await expect(ttl(page)).toHaveValue(String(stored.holds.ttl_minutes ?? ''));
    await expect(save(page)).toHaveCount(0);
    await expect(summary(page)).toContainText('Hold Duration');
  });
}

test('Currency: the programme currency (EUR by default), an ISO 4217 code checked in the browser, saved upper case', async ({
  page,
}) => {
  const posts: unknown[] = [];
  page.on('request', (r) => isSave(r.url(), r.method()) && posts.push(r.postDataJSON()));
  await page.goto('/settings');
  const currency = page.getByLabel('Currency');
  // Other screens' tests read the currency: it stays EUR here (saved again, in lower case).
  await expect(currency).toHaveValue('EUR');
  await currency.fill('XYZ');
  await page.getByRole('button', { name: 'Save Currency' }).click();
  const message = page.getByText('Currency must be a three-letter ISO 4217 code', { exact: true });
  await expect(message).toBeVisible();
  await expect(currency).toHaveAttribute('aria-invalid', 'true');
  await expect(currency).toBeFocused();
  expect(posts).toEqual([]);

  await currency.fill('eur');
  await expect(currency).toHaveValue('EUR');
  await expect(message).toBeHidden();
  await page.getByRole('button', { name: 'Save Currency' }).click();
  await expect(toast(page, 'Settings saved successfully')).toBeVisible();
  expect(posts).toEqual([{ programme: { currency: 'EUR' } }]);
  await expect(currency).toHaveValue('EUR');
});

test('Time Zone: the stored zone, chosen from the IANA list, saved as programme.timezone', async ({
  page,
  api,
}) => {
  // Earning rules read their hours in this zone, and other tests accrue meanwhile: settings are answered here,
  // the save included.
  const stored = await getSettings(api);
  let current = stored;
  const posts: unknown[] = [];
  await page.route(`**${SETTINGS}`, (route) => {
    if (route.request().method() === 'POST') {
      posts.push(route.request().postDataJSON());
      current = { ...current, programme: { ...current.programme, timezone: 'Europe/Berlin' } };
    }
    return json(route, 200, current);
  });
  await page.goto('/settings');
  const card = page.getByRole('form', { name: 'Time Zone' });
  await expect(card).toContainText('An IANA zone, such as Europe/Berlin.');
  await expect(timeZone(page)).toHaveValue(stored.programme.timezone);
  await expect(timeZone(page)).toBeEnabled();
  await expect(timeZone(page).locator('option', { hasText: 'Europe/Berlin' })).toHaveCount(1);
  await timeZone(page).selectOption('Europe/Berlin');
  await expect(card.getByRole('button', { name: 'Reset' })).toBeVisible();
  await card.getByRole('button', { name: 'Save Time Zone' }).click();
  await expect(toast(page, 'Settings saved successfully')).toBeVisible();
  expect(posts).toEqual([{ programme: { timezone: 'Europe/Berlin' } }]);
  await expect(timeZone(page)).toHaveValue('Europe/Berlin');
  await expect(card.getByRole('button', { name: 'Reset' })).toHaveCount(0);
});

test('a draft survives new settings from the server: untouched fields follow, typed ones stay', async ({
  page,
  api,
}) => {
  await page.goto('/settings');
  await expect(ttl(page)).not.toBeDisabled();
  await cards(page).fill('9');
  // Someone else changes the TTL; saving the currency brings the new settings into this page.
  await saveSettings(api, { holds: { ttl_minutes: 45 } });
  await page.getByRole('button', { name: 'Save Currency' }).click();
  await expect(toast(page, 'Settings saved successfully')).toBeVisible();
  await expect(ttl(page)).toHaveValue('45');
  await expect(cards(page)).toHaveValue('9');
  await expect(form(page).getByRole('button', { name: 'Reset' })).toBeVisible();
});

test("Save sends only the fields changed here: another admin's change to the other field stays", async ({
  page,
  api,
}) => {
  // The inputs were filled with the settings as loaded and every non-empty one was sent: saving the TTL put
  // back the card limit this page had loaded, over the one another admin saved meanwhile.
  // Settings are global: a limit far above the cards other screens' tests issue to one account, set back after.
  const before = await getSettings(api);
  const limit = 1000;
  const minutes = before.holds.ttl_minutes === 30 ? 31 : 30;
  await saveSettings(api, { cards: { limit_per_account: limit } });
  try {
    await page.goto('/settings');
    await expect(ttl(page)).toBeEnabled();
    await expect(cards(page)).toHaveValue(String(limit));
    await saveSettings(api, { cards: { limit_per_account: limit + 2 } });
    await ttl(page).fill(String(minutes));

    const sent = page.waitForRequest((r) => isSave(r.url(), r.method()));
    await save(page).click();
    expect((await sent).postDataJSON()).toEqual({ holds: { ttl_minutes: minutes } });
    await expect(toast(page, 'Settings saved successfully')).toBeVisible();
    const stored = await getSettings(api);
    expect(stored.holds.ttl_minutes).toBe(minutes);
    expect(stored.cards.limit_per_account).toBe(limit + 2);
    // The card shows the server's answer, the other admin's limit with it, and is no longer edited.
    await expect(cards(page)).toHaveValue(String(limit + 2));
    await expect(summary(page)).toContainText('Cards Limit1,002 cards per account');
    await expect(form(page).getByRole('button', { name: 'Reset' })).toHaveCount(0);

    // Nothing changed: Save still saves (and says so), sends nothing to change, and shows what is stored.
    await saveSettings(api, { holds: { ttl_minutes: minutes + 1 } });
    const unchanged = page.waitForRequest((r) => isSave(r.url(), r.method()));
    await save(page).click();
    expect((await unchanged).postDataJSON()).toEqual({});
    await expect(ttl(page)).toHaveValue(String(minutes + 1));
    expect((await getSettings(api)).cards.limit_per_account).toBe(limit + 2);
  } finally {
    await saveSettings(api, {
      holds: { ttl_minutes: before.holds.ttl_minutes },
      cards: { limit_per_account: before.cards.limit_per_account },
    });
  }
});

test('Points Expiry: saving the pending days leaves an expiry another admin set meanwhile', async ({
  page,
  api,
}) => {
  // Loaded with no expiry, 'Points never expire' starts ticked: it sent expiry_days null with every save.
  // Settings are global: a lot expiring beyond 90 days leaves other tests' forecasts as they are, and a pending
  // period of 0 is no pending period.
  await saveSettings(api, { points: { expiry_days: null, pending_days: null } });
  try {
    await page.goto('/settings');
    await expect(neverExpire(page)).toBeChecked();
    await expect(pendingDays(page)).toBeEnabled();
    await saveSettings(api, { points: { expiry_days: 3650 } });
    await pendingDays(page).fill('0');

    const sent = page.waitForRequest((r) => isSave(r.url(), r.method()));
    await expiryForm(page).getByRole('button', { name: 'Save Settings' }).click();
    expect((await sent).postDataJSON()).toEqual({ points: { pending_days: 0 } });
    await expect(toast(page, 'Settings saved successfully')).toBeVisible();
    expect((await getSettings(api)).points).toEqual({ expiry_days: 3650, pending_days: 0 });
    await expect(expiryDays(page)).toHaveValue('3650');
    await expect(neverExpire(page)).not.toBeChecked();
    await expect(summary(page)).toContainText('Points Expiry3,650 days');
    await expect(expiryForm(page).getByRole('button', { name: 'Reset' })).toHaveCount(0);
  } finally {
    await saveSettings(api, { points: { expiry_days: null, pending_days: null } });
  }
});

test('works at 390 px wide', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/settings');
  await expect(save(page)).toBeVisible();
  await expect(summary(page)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await save(page).boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
});

test('Points Expiry: placeholders, a round trip of both values, and the summary in words', async ({
  page,
  api,
}) => {
  // Settings are global: a long expiry and no pending period leave other tests' points spendable.
  await saveSettings(api, { points: { expiry_days: null, pending_days: null } });
  try {
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Points Expiry' })).toBeVisible();
    await expect(expiryDays(page)).toHaveValue('');
    await expect(expiryDays(page)).toHaveAttribute('placeholder', '365');
    await expect(pendingDays(page)).toHaveAttribute('placeholder', '14');
    await expect(summary(page)).toContainText('Points ExpiryNever');
    await expect(summary(page)).toContainText('Pending PeriodImmediately');

    await expiryDays(page).fill('-1');
    await expiryForm(page).getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Expiry (days) must be 0 or more')).toBeVisible();

    await expiryDays(page).fill('3650');
    await pendingDays(page).fill('0');
    const sent = page.waitForRequest((r) => isSave(r.url(), r.method()));
    await expiryForm(page).getByRole('button', { name: 'Save Settings' }).click();
    expect((await sent).postDataJSON()).toEqual({ points: { expiry_days: 3650, pending_days: 0 } });
    await expect(toast(page, 'Settings saved successfully')).toBeVisible();
    await expect(summary(page)).toContainText('Points Expiry3,650 days');
    await expect(summary(page)).toContainText('Pending PeriodImmediately');

    await page.reload();
    await expect(expiryDays(page)).toHaveValue('3650');
    await expect(pendingDays(page)).toHaveValue('0');
    expect((await getSettings(api)).points).toEqual({ expiry_days: 3650, pending_days: 0 });
  } finally {
    await saveSettings(api, { points: { expiry_days: null, pending_days: null } });
  }
});

test("Points Expiry: 'Points never expire' takes a set expiry back, and typing days clears it", async ({
  page,
  api,
}) => {
  // Before it, an empty input kept the stored expiry: once set, the console could not return to "never".
  // Settings are global: points other tests book meanwhile get this expiry, and a lot expiring beyond 90 days
  // leaves their forecasts as they are (30 days changed them).
  await saveSettings(api, { points: { expiry_days: 3650, pending_days: null } });
  try {
    await page.goto('/settings');
    await expect(expiryDays(page)).toHaveValue('3650');
    await expect(neverExpire(page)).not.toBeChecked();
    await neverExpire(page).check();
    await expect(expiryDays(page)).toHaveValue('');
    const sent = page.waitForRequest((r) => isSave(r.url(), r.method()));
    await expiryForm(page).getByRole('button', { name: 'Save Settings' }).click();
    expect((await sent).postDataJSON()).toEqual({ points: { expiry_days: null } });
    await expect(toast(page, 'Settings saved successfully')).toBeVisible();
    await expect(summary(page)).toContainText('Points ExpiryNever');
    expect((await getSettings(api)).points).toEqual({ expiry_days: null, pending_days: null });

    await page.reload();
    await expect(neverExpire(page)).toBeChecked();
    await expect(expiryDays(page)).toHaveValue('');
    await expiryDays(page).fill('90');
    await expect(neverExpire(page)).not.toBeChecked();
    // Keyboard: Space ticks it again, and the days go.
    await neverExpire(page).focus();
    await page.keyboard.press('Space');
    await expect(neverExpire(page)).toBeChecked();
    await expect(expiryDays(page)).toHaveValue('');
  } finally {
    await saveSettings(api, { points: { expiry_days: null, pending_days: null } });
  }
});

for (const role of ['VIEWER', 'MANAGER'] as const) {
  test(`${role} reads an unset value in the summary's words, not the administrator's example number`, async ({
    page,
    signIn,
    createUser,
  }) => {
    // Nothing set: the example numbers of spec section 9 are for an administrator typing a value.
    await serveUnsetSettings(page);
    await signIn(page, await createUser(role));
    await page.goto('/settings');
    await expect(summary(page)).toContainText('Cards LimitNo limit set');
    for (const [input, words] of [
      [ttl(page), 'Not configured'],
      [cards(page), 'No limit set'],
      [expiryDays(page), 'Never'],
      [pendingDays(page), 'Immediately'],
    ] as const) {
      await expect(input).toHaveValue('');
      await expect(input).toHaveAttribute('readonly', '');
      await expect(input).toHaveAttribute('placeholder', words);
    }
    await expect(summary(page)).toContainText('Points ExpiryNever');
    await expect(summary(page)).toContainText('Pending PeriodImmediately');
  });
}

test('an administrator keeps the example numbers as placeholders when nothing is set', async ({ page }) => {
  await serveUnsetSettings(page);
  await page.goto('/settings');
  await expect(save(page)).toBeEnabled();
  await expect(ttl(page)).toHaveAttribute('placeholder', '60');
  await expect(cards(page)).toHaveAttribute('placeholder', '3');
  await expect(expiryDays(page)).toHaveAttribute('placeholder', '365');
  await expect(pendingDays(page)).toHaveAttribute('placeholder', '14');
});
