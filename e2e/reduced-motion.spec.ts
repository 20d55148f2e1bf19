import { expect, test } from './support/fixtures';

// apps/web/src/index.css: with the system's "reduce motion" on, nothing scales, slides or pulses, and what
// closes still leaves the page (Radix waits for an exit animation's end before it unmounts).
test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

test('with reduced motion asked for, a dialog opens and closes without animating', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();
  const motion = await dialog.evaluate((element) => {
    const style = getComputedStyle(element);
    return { animation: style.animationDuration, transition: style.transitionDuration };
  });
  expect(motion).toEqual({ animation: '0.001s', transition: '0.001s' });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('without it, the dialog keeps its 150 ms entrance', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => getComputedStyle(element).animationDuration)).toBe('0.15s');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
