import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, expectJson, seenWith, test, toast, uniqueName } from './support/fixtures';
import { createAccount, fitsViewport, holdRequests } from './support/loyalty-api';
import { manualAccrual } from './support/programme-api';
import { startWebhookReceiver } from './support/webhook-receiver';

// Issue 12 "Console": the Webhooks screen (ADMIN), against real deliveries to a receiver in the test.
test.describe.configure({ mode: 'parallel' });

const SHOTS = `test-results/${process.env.E2E_PORT ?? 'default'}/webhooks`;
// Subscribed to an event no write emits yet, so other tests' writes queue nothing for these endpoints.
const QUIET_TYPE = 'points.expired';

const table = (page: Page) => page.getByRole('table', { name: 'Webhook endpoints' });
const rowFor = (page: Page, url: string) => table(page).getByRole('row').filter({ hasText: url });
const drawer = (page: Page) => page.getByRole('dialog', { name: 'Deliveries' });
const deliveryOf = (page: Page, type: string) =>
  drawer(page)
    .getByRole('listitem', { name: `${type} delivery` })
    .first();

async function rowAction(page: Page, url: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${url}` }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

test('add an endpoint (secret shown once), send a test event and watch it succeed', async ({
  page,
  signIn,
}) => {
  const receiver = await startWebhookReceiver(200);
  try {
    const url = receiver.url(uniqueName('hook'));
    await signIn(page);
    await page.goto('/webhooks');
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(table(page).getByRole('columnheader')).toHaveText([
      'URL',
      'Events',
      'Status',
      'Last Delivery',
      'Success Rate',
      'Backlog',
      'Actions',
    ]);

    await page.getByRole('button', { name: 'Add Endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add Endpoint' });
    await expect(add.getByLabel('URL')).toBeFocused();
    // Validation messages under their fields, before any request.
    await add.getByRole('button', { name: 'Add Endpoint' }).click();
    await expect(add.getByText('URL must be an http(s) URL')).toBeVisible();
    await expect(add.getByText('Choose at least one event type')).toBeVisible();
    // Deliveries are signed: a user name or password in the URL is refused, in the contract's words.
    await add.getByLabel('URL').fill(url.replace('://', '://crm-user:s3cret@'));
    await expect(add.getByText('URL must not contain a user name or password')).toBeVisible();
    await add.getByLabel('URL').fill(url);
    await expect(add.getByText('URL must not contain a user name or password')).toBeHidden();
    await add.getByLabel('Description').fill('CRM sync');
    await add.getByRole('checkbox', { name: QUIET_TYPE }).check();
    await expect(add.getByText('Choose at least one event type')).toBeHidden();
    await add.getByRole('button', { name: 'Add Endpoint' }).click();

    // The toast first: it lasts 4 s, and the checks after it can take longer on a loaded machine.
    await expect(toast(page, 'Webhook endpoint added')).toBeVisible();
    const secret = page.getByRole('dialog', { name: 'Endpoint Added', exact: true });
    await expect(secret.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(
      /^whsec_[A-Za-z0-9+/]{32}$/,
    );
    await expect(secret.getByRole('button', { name: 'Copy signing secret' })).toBeVisible();
    await secret.getByRole('button', { name: 'Done' }).click();
    await expect(secret).toBeHidden();
    // Shown once: the page holds it no longer.
    await expect(page.getByText(/whsec_/)).toHaveCount(0);

    const row = rowFor(page, url);
    await expect(row.getByRole('cell').nth(1)).toHaveText(QUIET_TYPE);
    await expect(row.getByRole('cell').nth(2)).toHaveText('Active');
    await expect(row.getByRole('cell').nth(3)).toHaveText('Never');
    await expect(row.getByRole('cell').nth(4)).toHaveText('N/A');
    await expect(row.getByRole('cell').nth(5)).toHaveText('Up to date');

    await rowAction(page, url, 'Send test event');
    await expect(toast(page, 'Test event queued')).toBeVisible();
    // The drawer opens on the new delivery and refreshes while it is pending.
    const test = deliveryOf(page, 'webhook.test');
    await expect(test.getByText('Succeeded', { exact: true })).toBeVisible();
    await expect(test.getByText('200', { exact: true })).toBeVisible();
    await test.getByText('Payload', { exact: true }).click();
    await expect(test.getByRole('textbox', { name: /^Payload of event/ })).toHaveValue(
      /"type": "webhook.test"/,
    );
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    await page.keyboard.press('Escape');
    await expect(drawer(page)).toBeHidden();

    await expect(row.getByRole('cell').nth(3)).toContainText('Succeeded');
    await expect(row.getByRole('cell').nth(4)).toHaveText('100%');
  } finally {
    await receiver.close();
  }
});

test('a receiver answering 500: the delivery fails, Retry sends it again; reveal, disable, enable', async ({
  page,
  signIn,
  api,
}) => {
  const receiver = await startWebhookReceiver(500);
  try {
    const url = receiver.url(uniqueName('failing'));
    const created = await expectJson<{ secret: string }>(
      await api.post('/api/v1/webhooks', { data: { url, eventTypes: [QUIET_TYPE] } }),
    );
    await signIn(page);
    await page.goto('/webhooks');
    await rowAction(page, url, 'Send test event');
    const test = deliveryOf(page, 'webhook.test');
    // The e2e server retries once after a second (WEBHOOK_RETRY_SCHEDULE), then gives up.
    await expect(test.getByText('Failed', { exact: true })).toBeVisible();
    await expect(test.getByText('500', { exact: true })).toBeVisible();
    await expect(test.getByText('HTTP 500', { exact: false })).toBeVisible();
    expect(receiver.received.length).toBe(2);

    receiver.answer(200);
    await test.getByRole('button', { name: 'Retry' }).click();
    await expect(toast(page, 'Delivery queued: it is sent again now')).toBeVisible();
    await expect(test.getByText('Succeeded', { exact: true })).toBeVisible();
    await expect(test.getByRole('button', { name: 'Retry' })).toBeHidden();
    await page.keyboard.press('Escape');
    const row = rowFor(page, url);
    await expect(row.getByRole('cell').nth(4)).toHaveText('100%');

    await rowAction(page, url, 'Reveal secret');
    const reveal = page.getByRole('dialog', { name: 'Signing Secret', exact: true });
    await expect(reveal.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(created.secret);
    await reveal.getByRole('button', { name: 'Done' }).click();

    await rowAction(page, url, 'Disable');
    await page
      .getByRole('alertdialog', { name: 'Disable Endpoint', exact: true })
      .getByRole('button', { name: 'Disable' })
      .click();
    await expect(toast(page, 'Endpoint disabled')).toBeVisible();
    await expect(row.getByRole('cell').nth(2)).toHaveText('Disabled');
    // A disabled endpoint has no backlog: enabled again, it starts from then.
    await expect(row.getByRole('cell').nth(5).getByTitle('Disabled')).toHaveText('—Disabled');
    await rowAction(page, url, 'Enable');
    await expect(toast(page, 'Endpoint enabled')).toBeVisible();
    await expect(row.getByRole('cell').nth(2)).toHaveText('Active');

    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.goto('/webhooks');
        await expect(row).toBeVisible();
        expect(await fitsViewport(page)).toBe(true);
        await page.screenshot({ path: `${SHOTS}/list-${width}-${theme}.png`, fullPage: true });
        await rowAction(page, url, 'View deliveries');
        await expect(deliveryOf(page, 'webhook.test').getByText('Succeeded', { exact: true })).toBeVisible();
        expect(await fitsViewport(page)).toBe(true);
        // The drawer slides in: finished at once for the picture, so it shows where it rests.
        await page.screenshot({ path: `${SHOTS}/deliveries-${width}-${theme}.png`, animations: 'disabled' });
      }
    }
  } finally {
    await receiver.close();
  }
});

test('an endpoint deleted elsewhere: each action is refused, the list reloads without it and what it opened closes', async ({
  page,
  signIn,
  api,
}) => {
  const receiver = await startWebhookReceiver(200);
  try {
    await signIn(page);
    const cases = [
      { item: 'Disable', toast: 'Failed to change the endpoint', disabled: false },
      { item: 'Enable', toast: 'Failed to change the endpoint', disabled: true },
      { item: 'Send test event', toast: 'Failed to send a test event', disabled: false },
      { item: 'Reveal secret', toast: 'Failed to reveal the signing secret', disabled: false },
      { item: 'View deliveries', toast: 'Failed to load deliveries', disabled: false },
    ];
    for (const step of cases) {
      const url = receiver.url(uniqueName('gone'));
      const created = await expectJson<{ id: string }>(
        await api.post('/api/v1/webhooks', { data: { url, eventTypes: [QUIET_TYPE] } }),
      );
      if (step.disabled) await api.patch(`/api/v1/webhooks/${created.id}`, { data: { status: 'disabled' } });
      await page.goto('/webhooks');
      await expect(rowFor(page, url)).toHaveCount(1);
      // Another administrator deletes it while this list still shows it.
      expect((await api.delete(`/api/v1/webhooks/${created.id}`)).status()).toBe(204);

      await rowAction(page, url, step.item);
      if (step.item === 'Disable') {
        await page
          .getByRole('alertdialog', { name: 'Disable Endpoint', exact: true })
          .getByRole('button', { name: 'Disable' })
          .click();
      }
      await expect(seenWith(toast(page, step.toast), 'Webhook endpoint not found'), step.item).toBeVisible();
      // The dialogs first: while one is open the page behind it is hidden from these queries.
      await expect(page.getByRole('alertdialog'), step.item).toHaveCount(0);
      await expect(page.getByRole('dialog'), step.item).toHaveCount(0);
      await expect(rowFor(page, url), step.item).toHaveCount(0);
      await expect(table(page)).toBeVisible();
      // Focus is not dropped to the page: it lands near where the endpoint's row was.
      await expect(page.locator('body'), step.item).not.toBeFocused();
    }
  } finally {
    await receiver.close();
  }
});

test('55 deliveries: Previous / Next reach the oldest, the status filter, and Export CSV downloads them all', async ({
  page,
  signIn,
  api,
}) => {
  const receiver = await startWebhookReceiver(500);
  try {
    const url = receiver.url(uniqueName('paged'));
    const { id } = await expectJson<{ id: string }>(
      await api.post('/api/v1/webhooks', { data: { url, eventTypes: [QUIET_TYPE] } }),
    );
    const count = async (status: string) =>
      (
        await expectJson<{ totalElements: number }>(
          await api.get(`/api/v1/webhooks/${id}/deliveries?status=${status}&size=1`),
        )
      ).totalElements;
    const sendTests = async (n: number) => {
      for (let i = 0; i < n; i++) await expectJson(await api.post(`/api/v1/webhooks/${id}/test`));
    };
    // The 5 oldest fail (an attempt and its one retry, WEBHOOK_RETRY_SCHEDULE), the 50 newest succeed: the
    // first page is all successes, so the failed ones are only reachable on page 2 or with the filter.
    await sendTests(5);
    await expect.poll(() => count('failed'), { timeout: 30_000 }).toBe(5);
    receiver.answer(200);
    await sendTests(50);
    await expect.poll(() => count('succeeded'), { timeout: 30_000 }).toBe(50);

    await signIn(page);
    await page.goto('/webhooks');
    await rowAction(page, url, 'View deliveries');
    const items = drawer(page).getByRole('list', { name: 'Deliveries' }).getByRole('listitem');
    await expect(drawer(page).getByText('The newest 50 of 55 deliveries.')).toBeVisible();
    await expect(items).toHaveCount(50);
    await expect(drawer(page).getByText('Page 1 of 2')).toBeVisible();
    await expect(drawer(page).getByRole('button', { name: 'Retry' })).toHaveCount(0);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      expect(await fitsViewport(page)).toBe(true);
      await page.screenshot({ path: `${SHOTS}/deliveries-paged-${width}.png`, animations: 'disabled' });
    }

    // While page 2 is on its way, page 1's rows stay with their own label (it read "51–100 of 55" over them).
    const secondPage = /\/deliveries\?(.*&)?page=1(&|$)/;
    const { release } = await holdRequests(page, secondPage, 'GET');
    const asked = page.waitForRequest(secondPage);
    await drawer(page).getByRole('button', { name: 'Next' }).click();
    await asked;
    await expect(drawer(page).getByText('The newest 50 of 55 deliveries.')).toBeVisible();
    release();
    await expect(drawer(page).getByText('Page 2 of 2')).toBeVisible();
    await expect(items).toHaveCount(5);
    await expect(drawer(page).getByText('51–55 of 55 deliveries, newest first.')).toBeVisible();
    for (const item of await items.all())
      await expect(item.getByText('Failed', { exact: true })).toBeVisible();
    await expect(drawer(page).getByRole('button', { name: 'Retry' })).toHaveCount(5);
    // Next disabled itself on the last page: focus moved to Previous, still in the drawer.
    await expect(drawer(page).getByRole('button', { name: 'Previous' })).toBeFocused();

    const filter = drawer(page).getByRole('combobox', { name: 'Filter by status' });
    await filter.click();
    await page.getByRole('option', { name: 'Failed', exact: true }).click();
    await expect(drawer(page).getByText('Page 1 of 1')).toBeVisible();
    await expect(items).toHaveCount(5);
    await filter.click();
    await page.getByRole('option', { name: 'Pending', exact: true }).click();
    await expect(drawer(page).getByText('No pending deliveries.')).toBeVisible();
    await filter.click();
    await page.getByRole('option', { name: 'All statuses', exact: true }).click();
    await expect(items).toHaveCount(50);

    // Every delivery of the filter (none: all of them), not the page shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer(page).getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^webhook-deliveries-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path()) as string, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(56);
    expect(lines.slice(1).filter((line) => line.includes(',failed,'))).toHaveLength(5);
  } finally {
    await receiver.close();
  }
});

test('the Backlog column counts what a receiver that has not answered yet still has to get, then is Up to date', async ({
  page,
  signIn,
  api,
}) => {
  const receiver = await startWebhookReceiver(200);
  // Every answer waits: the endpoint's stream cannot move past what it is sending.
  receiver.hold();
  try {
    const url = receiver.url(uniqueName('backlog'));
    await expectJson(await api.post('/api/v1/webhooks', { data: { url, eventTypes: ['points.adjusted'] } }));
    const account = await createAccount(api);
    await manualAccrual(api, account.id, 10);
    await manualAccrual(api, account.id, 20);

    await signIn(page);
    await page.goto('/webhooks');
    const backlog = rowFor(page, url).getByRole('cell').nth(5);
    // At least these two (other tests' adjustments wait too); the second line is the oldest one's age.
    const waiting = /^\d[\d,]*\+? events?oldest (just now|\d+ (s|min|h|days) ago)$/;
    await expect(backlog).toHaveText(waiting);
    const count = Number((await backlog.innerText()).replace(/[,+]/g, '').split(' ')[0]);
    expect(count).toBeGreaterThanOrEqual(2);

    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.goto('/webhooks');
        await expect(backlog).toHaveText(waiting);
        expect(await fitsViewport(page)).toBe(true);
        await page.screenshot({ path: `${SHOTS}/backlog-${width}-${theme}.png`, fullPage: true });
      }
    }

    receiver.release();
    // Delivered: both adjustments arrived, and the list is up to date.
    await expect
      .poll(() =>
        receiver.received
          .map((call) => JSON.parse(call.body) as { data: { accountId?: string } })
          .filter((event) => event.data.accountId === account.id),
      )
      .toHaveLength(2);
    // No Refresh: while an endpoint has a backlog the list asks again by itself.
    await expect(backlog).toHaveText('Up to date', { timeout: 60_000 });
  } finally {
    await receiver.close();
  }
});

test('a viewer and a manager have no Webhooks entry, and the screen refuses them without a failure toast', async ({
  page,
  signIn,
  createUser,
}) => {
  await signIn(page, await createUser('MANAGER'));
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/v1/webhooks') && r.status() === 403);
  await page.goto('/webhooks');
  await refused;
  await expect(page.getByText('You do not have permission to manage webhooks.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Endpoint' })).toHaveCount(0);
  // The 403 is the page's permission state, not a failure to report on top of it. Two frames after the state
  // is shown, a toast raised with it (by the same failed query) would be on the page.
  // Counted once, not polled: a polling assertion would wait for such a toast to time out.
  // (sonner shows a toast from a timer: a timer of ours runs after it, then two frames.)
  await page.evaluate(
    () =>
      new Promise((done) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(done)), 0)),
  );
  expect(await page.locator('[data-sonner-toast]').count()).toBe(0);

  await signIn(page, await createUser('VIEWER'));
  await page.goto('/webhooks');
  await expect(page.getByText('You do not have permission to manage webhooks.')).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }),
  ).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Endpoint' })).toHaveCount(0);
});

test('a manager is offered no Add Endpoint, even when the list fails to load', async ({
  page,
  signIn,
  createUser,
}) => {
  await signIn(page, await createUser('MANAGER'));
  // A server failure instead of the 403 that would have hidden the button.
  await page.route('**/api/v1/webhooks', (route) => route.fulfill({ status: 500, json: {} }));
  await page.goto('/webhooks');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Endpoint' })).toHaveCount(0);
});
