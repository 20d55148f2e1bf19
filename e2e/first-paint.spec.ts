import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

// What index.html paints before any JavaScript file has run (apps/web/build/inline-boot.ts): the stored
// theme, set by the inline script the Content-Security-Policy allows by its hash, and a loading state.
test.describe.configure({ mode: 'parallel' });

/** Collects Content-Security-Policy violations the page reports (an inline script refused would be one). */
async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.violatedDirective}: ${event.blockedURI || 'inline'}`);
    });
  });
  return violations;
}

for (const theme of ['light', 'dark'] as const) {
  test(`${theme}: the stored theme and a loading state come with the page, before its scripts`, async ({
    page,
  }) => {
    const violations = await watchCspViolations(page);
    await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
    // The console's JavaScript never arrives: what shows is index.html's own.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/login');

    await expect(page.getByRole('status')).toHaveText('Loading Loyalty Admin…');
    const html = page.locator('html');
    if (theme === 'dark') await expect(html).toHaveClass(/\bdark\b/);
    else await expect(html).not.toHaveClass(/\bdark\b/);
    await expect(html).toHaveCSS('color-scheme', theme);
    expect(violations).toEqual([]);
  });
}

test('the console replaces the loading state when it starts, with no script refused by the policy', async ({
  page,
}) => {
  const violations = await watchCspViolations(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Loading Loyalty Admin…')).toHaveCount(0);
  const csp = await page.request.get('/login').then((r) => r.headers()['content-security-policy'] ?? '');
  // Exactly one inline script is allowed, by hash; never 'unsafe-inline' for scripts.
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  expect(violations).toEqual([]);
});
