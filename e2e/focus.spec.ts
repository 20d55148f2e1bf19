import type { Page } from '@playwright/test';
import { ADMIN, expect, test } from './support/fixtures';
import { type FocusRing, focusRing, ringContrast } from './support/focus-ring';
import { createCardholder } from './support/loyalty-api';

// Issue 16 "Focus": a visible ring with ≥ 3:1 contrast in both themes, a skip link, focus to the page
// heading after navigation and sign-in, and a dashboard chart that is not a bare tab stop.
test.describe.configure({ mode: 'parallel' });

const themes = ['light', 'dark'] as const;

async function useTheme(page: Page, theme: (typeof themes)[number]) {
  await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** What is wrong with a ring, or null: solid, ≥ 2 px, opaque, ≥ 3:1 against the colours it touches. */
function ringProblem(ring: FocusRing): string | null {
  const ratios = ringContrast(ring);
  // Outside the control the ring touches the surface around it; drawn inside, it touches the control.
  const touching = ring.offset < 0 ? ratios.face : ratios.behind;
  if (ring.style === 'none' || ring.width < 2 || ring.ringAlpha < 1 || touching < 3) {
    return `${ring.element}: ${ring.style} ${ring.width}px alpha ${ring.ringAlpha}, ${touching.toFixed(2)}:1`;
  }
  return null;
}

for (const theme of themes) {
  test(`${theme}: the focused Sign in button has a ring of at least 3:1 against the button and the card`, async ({
    page,
  }) => {
    await useTheme(page, theme);
    await page.goto('/login');
    await page.getByLabel('Username').pressSequentially('someone');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
    const ring = await focusRing(page);
    expect(ring).not.toBeNull();
    const { behind, face } = ringContrast(ring as FocusRing);
    test.info().annotations.push({
      type: 'contrast',
      description: `${theme}: ring rgb(${ring?.ring}) vs button rgb(${ring?.face}) ${face.toFixed(2)}:1, vs card rgb(${ring?.behind}) ${behind.toFixed(2)}:1`,
    });
    expect(ring?.style).toBe('solid');
    expect(ring?.width).toBeGreaterThanOrEqual(2);
    expect(ring?.ringAlpha).toBe(1);
    expect(face).toBeGreaterThanOrEqual(3);
    expect(behind).toBeGreaterThanOrEqual(3);
  });

  test(`${theme}: an invalid field with focus shows one ring, in the error colour and on its border, of at least 3:1`, async ({
    page,
    signIn,
  }) => {
    await useTheme(page, theme);
    await signIn(page);
    await page.goto('/users');
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User', exact: true });
    await dialog.getByLabel('Username').fill('ring.check');
    await dialog.getByLabel('Password').fill('secret-password');
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    const email = dialog.getByLabel('Email');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();
    const ring = (await focusRing(page)) as FocusRing;
    expect(ringProblem(ring)).toBeNull();
    // Not a red border inside a blue ring: the ring is the border's colour and touches it, one band.
    const colours = await email.evaluate((input) => {
      const style = getComputedStyle(input);
      return { outline: style.outlineColor, border: style.borderTopColor };
    });
    expect(colours.outline).toBe(colours.border);
    expect(ring.offset).toBe(0);
  });

  test(`${theme}: every Tab stop of the shell, a table screen and the dashboard shows a ring of at least 3:1`, async ({
    page,
    signIn,
  }) => {
    test.slow(); // some 70 Tab presses, each followed by a look at the ring
    await useTheme(page, theme);
    await signIn(page);
    const problems: string[] = [];
    for (const [path, title] of [
      ['/accounts', 'Accounts'],
      ['/', 'Dashboard'],
    ] as const) {
      await page.goto(path);
      await expect(heading(page, title)).toBeVisible();
      await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
      for (let stop = 0; stop < 35; stop += 1) {
        await page.keyboard.press('Tab');
        const ring = await focusRing(page);
        if (!ring) break;
        const problem = ringProblem(ring);
        if (problem) problems.push(`${path} ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
}

test('the skip link is the first Tab stop, shows itself, and takes focus to the screen heading', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/accounts');
  await expect(heading(page, 'Accounts')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  const box = await skip.boundingBox();
  expect(box?.width).toBeGreaterThan(40);
  expect(box?.y).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(heading(page, 'Accounts')).toBeFocused();
  await expect(page).toHaveURL('/accounts');
  // The next Tab is inside the screen, past the sidebar and the top bar.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
  await expect(skip).not.toBeInViewport();
});

test('after a navigation by mouse, by keyboard and by Back, the new screen heading has focus', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/accounts');
  await expect(heading(page, 'Accounts')).toBeVisible();
  await mainNav(page).getByRole('link', { name: 'Cards', exact: true }).click();
  await expect(heading(page, 'Loyalty Cards')).toBeFocused();
  await expect(page).toHaveTitle('Loyalty Cards · Loyalty Admin');

  await mainNav(page).getByRole('link', { name: 'Operations', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(heading(page, 'Operations History')).toBeFocused();

  await page.goBack();
  await expect(heading(page, 'Loyalty Cards')).toBeFocused();
  // The heading takes focus without a ring: it is where reading starts, not a control.
  expect((await focusRing(page))?.style).toBe('none');
});

test('a client page reached from a table gives focus to the client heading once it has loaded', async ({
  page,
  signIn,
  api,
}) => {
  const { account } = await createCardholder(api);
  await signIn(page);
  await page.goto('/accounts');
  await page.getByLabel('Search accounts').fill(account.clientId);
  await page.getByRole('link', { name: account.clientId, exact: true }).click();
  // The screen shows a loading heading first; the focus passes on to the client's own.
  await expect(heading(page, account.clientId)).toBeFocused();
});

test('a deep link opened by the browser keeps focus at the top of the document', async ({ page, signIn }) => {
  await signIn(page);
  await page.goto('/operations');
  await expect(heading(page, 'Operations History')).toBeVisible();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
});

test('after signing in, the dashboard heading has focus', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL('/');
  await expect(heading(page, 'Dashboard')).toBeFocused();
});

test('the dashboard chart is a named image whose description gives its figures', async ({ page, signIn }) => {
  await signIn(page);
  await page.goto('/');
  const chart = page.getByRole('img', { name: 'Bonus operations chart' });
  // The chart library loads after the figures, in a chunk of its own.
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleDescription(
    // The card's exact volume, as its subtitle: decimals when the points have them.
    /^[\d,]+ operations?, [\d,]+(\.\d+)? bonus points? over \d+ (days|hours) \(UTC\)\..*Arrow keys step through/,
  );
  await chart.focus();
  expect(ringProblem((await focusRing(page)) as FocusRing)).toBeNull();
});

test('the chart range control: Tab lands on the checked range, arrows move focus and loop, Space picks, Shift+Tab leaves in one step', async ({
  page,
  signIn,
}) => {
  await signIn(page);
  await page.goto('/');
  const group = page.getByRole('radiogroup', { name: 'Chart range' });
  const radio = (name: string) => group.getByRole('radio', { name, exact: true });
  const refresh = page.getByRole('button', { name: 'Refresh' });
  await expect(radio('Last 7 days')).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
  // Tab from the stop before it (Refresh): the group is one stop, and it hands focus to the checked range.
  await refresh.focus();
  await page.keyboard.press('Tab');
  await expect(radio('Last 7 days')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(radio('Last month')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(radio('Last 24 hours')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(radio('Last month')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(radio('Last 24 hours')).toBeFocused();
  await page.keyboard.press('End');
  await expect(radio('Last month')).toBeFocused();
  // Arrows move focus only; the focused one is the single tab stop.
  await expect(radio('Last 7 days')).toHaveAttribute('aria-checked', 'true');
  await expect(radio('Last month')).toHaveAttribute('tabindex', '0');
  await expect(radio('Last 7 days')).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('Space');
  await expect(radio('Last month')).toHaveAttribute('aria-checked', 'true');
  await expect(radio('Last 7 days')).toHaveAttribute('aria-checked', 'false');
  // The new range's data loads with Refresh busy (aria-disabled, still a tab stop since it keeps focus while it
  // runs). Wait for the load, as a person would see the spinner stop.
  await expect(refresh).toBeEnabled();
  // Out and back: Tab leaves the group, Shift+Tab returns to its tab stop, a second Shift+Tab leaves it.
  await page.keyboard.press('Tab');
  await expect(group.locator(':focus')).toHaveCount(0);
  await page.keyboard.press('Shift+Tab');
  await expect(radio('Last month')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(refresh).toBeFocused();
  await expect(group).toHaveAttribute('tabindex', '0');
});
