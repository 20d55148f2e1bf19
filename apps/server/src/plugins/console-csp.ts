import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/**
 * The `script-src` sources that allow the built console's inline scripts (the theme set before first paint,
 * `apps/web/build/inline-boot.ts`) and nothing else: one `'sha256-…'` per script of index.html, read once at
 * start-up. A console that is not built (API-only servers, tests) has none.
 */
export function inlineScriptHashes(distDir: string): string[] {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '', 'utf8')
        .digest('base64')}'`,
  );
}
