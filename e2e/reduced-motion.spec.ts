import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

// apps/web/src/index.css: with the system's "reduce motion" on, nothing scales, slides or pulses, and what
// closes still leaves the page (Radix waits for an exit animation's end before it unmounts).
test.beforeEach(async ({ page, signIn }) => {
  await signIn(page);
});

/** The Add User dialog's animation and transition durations under a motion preference; Escape closes it. */
async function dialogMotion(page: Page, reducedMotion: 'reduce' | 'no-preference') {
  await page.emulateMedia({ reducedMotion });
  await page.goto('/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();
  const motion = await dialog.evaluate((element) => {
    const style = getComputedStyle(element);
    return { animation: style.animationDuration, transition: style.transitionDuration };
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  return motion;
}

test('with reduced motion asked for, a dialog opens and closes without animating', async ({ page }) => {
  expect(await dialogMotion(page, 'reduce')).toEqual({ animation: '0.001s', transition: '0.001s' });
});

test('without it, the dialog keeps its 150 ms entrance', async ({ page }) => {
  expect((await dialogMotion(page, 'no-preference')).animation).toBe('0.15s');
});
