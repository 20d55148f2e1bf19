import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The Accounts screen's table, a client's row in it, and its row menu: shared by the specs that use it. */
export const accountsTable = (page: Page) => page.getByRole('table', { name: 'Accounts' });

export const accountRow = (page: Page, clientId: string) =>
  accountsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: clientId, exact: true }) });

/** Opens /accounts narrowed to one client (parallel tests create many accounts). */
export async function showAccount(page: Page, clientId: string) {
  await page.goto('/accounts');
  await page.getByLabel('Search accounts').fill(clientId);
  await expect(accountRow(page, clientId)).toHaveCount(1);
}

/** Chooses `item` in the row menu of `clientId`. */
export async function accountRowAction(page: Page, clientId: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${clientId}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}
