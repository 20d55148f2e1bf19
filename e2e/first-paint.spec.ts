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
  // Exactly the two inline scripts (theme, first screen's preloads) are allowed, by hash; never
  // 'unsafe-inline' for scripts.
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  expect(violations).toEqual([]);
});

/** The chunks index.html asks the browser to fetch at once (apps/web/build/route-preload.ts). */
const preloaded = (page: Page) =>
  page
    .locator('link[rel="modulepreload"]')
    .evaluateAll((links) =>
      links.map((link) =>
        (link as HTMLLinkElement).href.replace(/^.*\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''),
      ),
    );

test("the first screen's chunks are requested by index.html itself, before the entry has run", async ({
  page,
  signIn,
}) => {
  const violations = await watchCspViolations(page);
  // No console script runs: whatever is preloaded, index.html asked for.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/login');
  await expect(page.getByRole('status')).toHaveText('Loading Loyalty Admin…');
  const login = await preloaded(page);
  expect(login).toContain('login-page');
  expect(login).not.toContain('authenticated-shell');

  await signIn(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('status')).toHaveText('Loading Loyalty Admin…');
  const dashboard = await preloaded(page);
  expect(dashboard).toEqual(expect.arrayContaining(['authenticated-shell', 'dashboard-page']));
  expect(dashboard).not.toContain('login-page');
  expect(violations).toEqual([]);
});
