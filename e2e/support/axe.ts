import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';

export interface AxeScanOptions {
  /** Scan only what this selector matches (e.g. an open listbox); the whole document otherwise. */
  include?: string;
  /** Left out of the scan, e.g. the POS API documentation's frame (Swagger UI's own markup). */
  exclude?: string[];
  /** Rules switched off, e.g. `region` while a portalled popup is open. */
  disableRules?: string[];
}

// axe-core's browser build, read once per worker.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * An axe scan of `page`: `axe.run` inside the page, with axe-core injected once per document.
 *
 * Not `@axe-core/playwright`: its `analyze()` injects the 550 kB axe source again on every call and returns the
 * full details of every passing check too. Measured on one page at rest, a scan cost 300–570 ms through it
 * against 70–100 ms here (injection 60–110 ms once per document) — and the browser tier runs about 350 scans,
 * on the same two cores as the server and the browsers. The rules and the nodes they check are the same:
 * this calls the same `axe.run` that the builder's legacy mode calls.
 *
 * Frames are not entered (`iframes: false`): the console's one frame is the POS API documentation, which every
 * caller excludes. So that a new frame is never skipped silently, a frame that is not excluded fails the scan.
 */
export async function axeScan(page: Page, options: AxeScanOptions = {}): Promise<AxeResults> {
  const exclude = options.exclude ?? [];
  // A dialog or popup fades and zooms in: scanned mid-animation its text is part-transparent and fails
  // contrast (seen on a loaded machine, in the axe sweep and in tables.spec.ts). Every scan first waits for
  // the page's finite animations to end; endless ones (spinners) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // One trip to the page for both: the frames the scan would skip, and whether this document has axe yet.
  const state = await page.evaluate(
    (excluded) => ({
      unscannedFrames: [...document.querySelectorAll('iframe, frame')].filter(
        (f) => !excluded.some((s) => f.matches(s)),
      ).length,
      hasAxe: 'axe' in window,
    }),
    exclude,
  );
  if (state.unscannedFrames > 0) {
    throw new Error(
      `axeScan: ${state.unscannedFrames} frame(s) would go unscanned; exclude them or scan them apart`,
    );
  }
  if (!state.hasAxe) await page.evaluate(axeSource);

  const context: ElementContext = { exclude: exclude.map((s) => [s]) };
  if (options.include) context.include = [[options.include]];
  const runOptions: RunOptions = {
    iframes: false,
    // Details only for violations: the passes' node lists are never read and cost their serialisation.
    resultTypes: ['violations'],
    rules: Object.fromEntries((options.disableRules ?? []).map((id) => [id, { enabled: false }])),
  };
  // The page answers plain JSON; typed here rather than through evaluate's generics (too deep for tsc).
  const results: unknown = await page.evaluate(
    ([ctx, opts]) =>
      (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe.run(
        ctx,
        opts,
      ),
    [context, runOptions] as [unknown, unknown],
  );
  return results as AxeResults;
}
