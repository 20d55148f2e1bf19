import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const THEME_INIT = new URL('../src/theme-init.inline.js', import.meta.url);

/**
 * What the page needs before its first paint, written into index.html instead of fetched: the theme script
 * (a separate file was a render-blocking request, one round trip before anything could paint) and a
 * loading state inside #root, so a slow network shows the product's frame at once instead of a blank page
 * until the JavaScript has run (React replaces it on its first render). The server's Content-Security-Policy
 * allows the inline script by its SHA-256 (`plugins/console-csp.ts`), so no inline script but this one runs.
 */
export function inlineBoot(): Plugin {
  return {
    name: 'loyalty:inline-boot',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        // Comments stay in the source file; the page gets the code.
        const script = readFileSync(THEME_INIT, 'utf8')
          .split('\n')
          .filter((line) => !line.trim().startsWith('//'))
          .join('\n')
          .trim();
        return html
          .replace('<!-- theme-init -->', `<script>${script}</script>`)
          .replace('<!-- boot-placeholder -->', BOOT_PLACEHOLDER);
      },
    },
  };
}

// Tailwind classes (the theme's colours in both themes, read from index.css, render-blocking); the text is
// announced politely and gone when React renders.
const BOOT_PLACEHOLDER = `<div class="flex min-h-svh items-center justify-center bg-background text-muted-foreground" role="status">
        <p class="text-sm">Loading Loyalty Admin…</p>
      </div>`;
