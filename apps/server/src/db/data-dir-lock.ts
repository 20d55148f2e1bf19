import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config';

/** The file in DATA_DIR naming the process that has the embedded database open. */
export const LOCK_FILE = 'loyalty.lock';

/**
 * Claims DATA_DIR for this process, or refuses naming the one that has it. PGlite is one process's database:
 * a second server (or `npm run verify-ledger`) opening the same folder started without a word, each kept its
 * own copy in memory, and whichever wrote its files last won: the other's writes were lost. A lock left by a
 * process that is gone (killed -9, the machine restarted) is taken over; so is one naming this very process
 * (a container's PID 1 after a restart). Returns the release, idempotent.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  // Written whole to a file of our own first, then linked into place: a reader never sees an empty lock.
  const mine = `${path}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        linkSync(mine, path);
        let held = true;
        return () => {
          if (!held) return;
          held = false;
          if (ownerOf(path) === process.pid) rmSync(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = ownerOf(path);
        if (owner !== undefined && owner !== process.pid && isRunning(owner)) {
          throw new ConfigError(
            `DATA_DIR ${dataDir} is in use by process ${owner}: the embedded database serves one process. ` +
              'Stop that one first, or set DATABASE_URL to share a PostgreSQL server between several.',
          );
        }
        rmSync(path, { force: true });
      }
    }
    throw new ConfigError(`DATA_DIR ${dataDir}: another process is taking it at the same moment`);
  } finally {
    rmSync(mine, { force: true });
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
