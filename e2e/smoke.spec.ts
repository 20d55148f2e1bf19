import { expect, test } from '@playwright/test';

test('the server is ready and serves the console and the API docs', async ({ page, request }) => {
  expect((await request.get('/readyz')).ok()).toBe(true);
  await page.goto('/swagger.html');
  await expect(page.getByText('Loyalty Admin API').first()).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveTitle(/Loyalty Admin/);
});
