import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * An axe scan of `page`, run by `axe.run` inside the page itself (axe-core's "legacy" mode). The default mode
 * (`runPartial` in each frame, then `finishRun`) opens a new blank tab for every scan to merge the results in,
 * injects axe there and closes it again: a tab per scan, ~160 of them in a run of the browser tier.
 * That mode exists for cross-origin frames; the console has none (its one frame, the POS API documentation, is
 * same-origin and excluded), and `axe.run` checks the same rules on the same nodes.
 */
export function axeScan(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode();
}
