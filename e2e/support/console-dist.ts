import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console as built by `npm run build` (apps/web/dist). */
export const WEB_DIST = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));

/**
 * A private copy of the built console for one server run. The server serves only the files present at
 * its start, so a rebuild of apps/web/dist during a run (another terminal, another helper) would leave
 * index.html pointing at chunks the server does not know, and every later page would be blank.
 * Returns undefined when nothing is built (the server then reports the missing console itself).
 */
export function snapshotConsole(prefix: string): string | undefined {
  if (!existsSync(join(WEB_DIST, 'index.html'))) return undefined;
  const copy = mkdtempSync(join(tmpdir(), prefix));
  cpSync(WEB_DIST, copy, { recursive: true });
  return copy;
}
