import { expect, test } from './support/fixtures';

// A screen that cannot render (here: its chunk cannot be downloaded, as after a deploy) shows the router's
// error page instead of a blank one, and a navigation (Back) brings the console back (app/route-error-boundary.tsx).
test('a screen whose code cannot load shows the error page; Back returns to the screen before', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.route('**/assets/users-page-*.js', (route) => route.abort());
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toContainText('users-page');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});
