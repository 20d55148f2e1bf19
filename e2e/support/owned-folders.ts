import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname } from 'node:path';

/**
 * The temporary folders a run creates (its embedded database, its copy of the console), listed in
 * E2E_OWNED_DIRS so that every process of the run (the runner, its workers, the web server's wrapper) knows
 * them, and whoever ends the run removes them: never a folder a caller named itself.
 */
export function ownFolder<T extends string | undefined>(folder: T): T {
  if (folder) {
    process.env.E2E_OWNED_DIRS = [process.env.E2E_OWNED_DIRS, folder].filter(Boolean).join(delimiter);
  }
  return folder;
}

/** Removes the run's own folders, and only inside the system's temporary folder. */
export function removeOwnedFolders(): void {
  for (const folder of (process.env.E2E_OWNED_DIRS ?? '').split(delimiter)) {
    if (folder && dirname(folder) === tmpdir()) rmSync(folder, { recursive: true, force: true });
  }
}
