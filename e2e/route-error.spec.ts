import { axeScan } from './support/axe';
import { expect, test } from './support/fixtures';

// A screen that cannot render (here: its chunk cannot be downloaded, as after a deploy) shows an error page
// that says what happened and how out, instead of a blank one (app/route-error-boundary.tsx); a navigation
// (Back) brings the console back, and 'Reload page' loads the screen again.
test('a screen whose code cannot load shows the error page; Back and Reload recover', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.route('**/assets/users-page-*.js', (route) => route.abort());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();

  const heading = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page.getByText('This screen could not be shown.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await page.getByText('Details').click();
  await expect(page.getByText(/users-page/)).toBeVisible();
  expect((await axeScan(page)).violations).toEqual([]);

  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // Once the code can be downloaded again (the new version is there), Reload shows the screen.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(heading).toBeVisible();
  await page.unroute('**/assets/users-page-*.js');
  await page.getByRole('button', { name: 'Reload page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'User Management' })).toBeVisible();
});

// A part of a screen loaded on demand (the dashboard's chart, lib/lazy-module.ts) whose code cannot be downloaded
// reports it the same way.
test("the dashboard's chart code failing to load shows the error page; Reload recovers", async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.route('**/assets/operations-chart-*.js', (route) => route.abort());
  await page.goto('/');

  const heading = page.getByRole('heading', { level: 1, name: 'Something went wrong' });
  await expect(heading).toBeVisible();
  await page.getByText('Details').click();
  await expect(page.getByText(/operations-chart/)).toBeVisible();

  await page.unroute('**/assets/operations-chart-*.js');
  await page.getByRole('button', { name: 'Reload page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
});
