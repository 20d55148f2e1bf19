import type { APIRequestContext } from '@playwright/test';
import { expect, expectJson, test, uniqueName } from './support/fixtures';

// Issue 9 in the console: an account's lots and expiry forecast, 'Pending' under the balance, and expiry
// operations in Operations (type filter, icon, red points).
test.describe.configure({ mode: 'parallel' });

const DAY_MS = 86_400_000;

/** A member imported with an opening lot of `points` expiring at `expiresAt` (PROGRAMME-API §4). */
async function importMember(api: APIRequestContext, points: number, expiresAt: Date) {
  const clientId = uniqueName('LOTS').toUpperCase();
  const body = `clientId,points,expiresAt\n${clientId},${points},${expiresAt.toISOString()}\n`;
  const answer = await expectJson<{ created: number }>(
    await api.post('/api/v1/imports/accounts', { headers: { 'content-type': 'text/csv' }, data: body }),
  );
  expect(answer.created).toBe(1);
  const { content } = await expectJson<{ content: Array<{ id: string; clientId: string }> }>(
    await api.get(`/api/v1/accounts?search=${clientId}`),
  );
  return content.find((account) => account.clientId === clientId)!;
}

test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test("the balance cell says 'Pending: N pts' when some points are not spendable yet", async ({
  page,
  api,
}) => {
  // A pending period is a global setting that would hold back every other test's points: the list's
  // answer gets a pending amount instead, and the cell's words are what is checked.
  const account = await importMember(api, 40, new Date(Date.now() + 90 * DAY_MS));
  await page.route('**/api/v1/accounts?*', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const row of body.content) if (row.id === account.id) row.pendingBalance = 12.5;
    await route.fulfill({ response, json: body });
  });
  await page.goto('/accounts');
  await page.getByLabel('Search accounts').fill(account.clientId);
  const cells = page.getByRole('table', { name: 'Accounts' }).locator('tbody tr').first().getByRole('cell');
  await expect(cells.nth(2)).toHaveText('40 ptsPending: 12.5 pts');
});
