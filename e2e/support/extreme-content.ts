import type { Locator, Page } from '@playwright/test';
import { axeScan } from './axe';
import { expect } from './fixtures';

/**
 * Measurements for extreme-content.spec.ts: content at its limits (a balance of billions, a 100-character
 * client ID, 1,000 SKUs in a rule, a 1,500-character URL, right-to-left names) against the layout.
 */

export const SHOTS = `test-results/${process.env.E2E_PORT ?? 'default'}/extreme-content`;

/** The page is no wider than the viewport (WCAG 1.4.10 reflow). */
export async function pageFits(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
}

/**
 * How a figure such as '123,456.78 pts' is laid out: the number of lines its number (the text before ' pts')
 * takes, measured on a Range over exactly those characters, and how far it reaches past its card.
 */
export async function figureLayout(figure: Locator) {
  return figure.evaluate((dd) => {
    const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
    const text = nodes.map((node) => node.data).join('');
    const numberLength = text.replace(/ pts$/, '').length;
    // The Range from the first character to the number's last one, across the text nodes.
    const range = document.createRange();
    range.setStart(nodes[0]!, 0);
    let left = numberLength;
    for (const node of nodes) {
      if (left <= node.data.length) {
        range.setEnd(node, left);
        break;
      }
      left -= node.data.length;
    }
    const rects = Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
    const lines = new Set(rects.map((rect) => Math.round(rect.top))).size;
    const card = dd.parentElement!.getBoundingClientRect();
    const number = range.getBoundingClientRect();
    return {
      text,
      lines,
      overflow: Math.max(0, Math.ceil(number.right - card.right), dd.scrollWidth - dd.clientWidth),
    };
  });
}

/** The text is shown whole: its box does not cut it (no ellipsis, no clipped overflow). */
export async function shownWhole(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    // Not clamped (line-clamp hides the lines after the last one shown).
    if (element.scrollHeight > element.clientHeight + 1) return false;
    let node: Element | null = element;
    // The element and the table cell around it, either of which may clip.
    while (node && node.tagName !== 'TR') {
      if (node.scrollWidth > node.clientWidth + 1) return false;
      node = node.parentElement;
    }
    return true;
  });
}

export function style(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
}

/** Whether two elements' computed `property` differ (for expect.poll: a re-render may replace an element mid-read). */
export async function differ(a: Locator, b: Locator, property: string): Promise<boolean> {
  return (await style(a, property)) !== (await style(b, property));
}

/** No axe violations on the page as it is. */
export async function expectNoAxeViolations(page: Page, label: string, disableRules: string[] = []) {
  const results = await axeScan(page, { disableRules });
  expect(
    results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);
}

/** Screenshots at 1280 px light and 390 px dark (or the sizes given), after `ready` each time. */
export async function shoot(
  page: Page,
  name: string,
  ready: () => Promise<void>,
  sizes: { width: number; height: number; theme: 'light' | 'dark' }[] = [
    { width: 1280, height: 800, theme: 'light' },
    { width: 390, height: 844, theme: 'dark' },
  ],
) {
  for (const { width, height, theme } of sizes) {
    await page.setViewportSize({ width, height });
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await ready();
    // A list fetching dims its old rows: scanned then, muted text fails contrast. (`ready` opens a search from
    // the address, not typed: a typed one is fetched after a debounce, which may come after this wait.)
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    // ...and its rows fade back in when the answer lands (data-table-body.tsx): scanned mid-fade, the same.
    for (const body of await page.locator('tbody').all()) await expect(body).toHaveCSS('opacity', '1');
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${theme}.png`, animations: 'disabled' });
    await expectNoAxeViolations(page, `${name} ${width} ${theme}`);
  }
  await page.evaluate(() => localStorage.removeItem('theme'));
}
