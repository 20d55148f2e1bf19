import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * DATA_DIR holds the embedded database (every member, staff password hashes, the audit log) and the generated
 * secrets: it is the server's alone, as PostgreSQL asks of its data folder. PGlite writes its files readable and
 * writable by everyone (0666), so the folder is what keeps other local accounts out: created 0700, and one
 * made open by an earlier version (0755 under the usual umask) closed at start.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { mode } = statSync(dir);
  // Only a folder this process owns can be changed; another owner's (a mount point) is left as it is.
  if ((mode & 0o077) !== 0) {
    try {
      chmodSync(dir, mode & 0o700);
    } catch {
      // Not ours to change: the operator's choice stands.
    }
  }
}
