import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../lib/config-error';
import { isProcessRunning } from '../lib/process-running';

/** The file in DATA_DIR naming the process that has the embedded database open. */
export const LOCK_FILE = 'loyalty.lock';

/**
 * Claims DATA_DIR for this process, or refuses naming the one that has it. PGlite is one process's database:
 * a second server (or `npm run verify-ledger`) opening the same folder started without a word, each kept its
 * own copy in memory, and whichever wrote its files last won: the other's writes were lost. The lock names the
 * process and its host. A lock left by a process of this host that is gone (killed -9, the machine restarted)
 * is taken over; so is one naming this very process (a container's PID 1 after a restart). Whether a process
 * of another host runs cannot be known from here (a folder shared over the network, or two containers on one
 * volume), so its lock refuses until it is released or deleted by hand. Two processes taking over one stale
 * lock at the same moment can both win (each removes what it judged stale): a start right after a crash,
 * twice at once, is not covered. Returns the release, idempotent.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  // Written whole to a file of our own first, then linked into place: a reader never sees an empty lock.
  const mine = `${path}.${process.pid}`;
  const me = { pid: process.pid, host: hostname() };
  writeFileSync(mine, `${me.pid} ${me.host}\n`);
  try {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        linkSync(mine, path);
        let held = true;
        return () => {
          if (!held) return;
          held = false;
          const owner = ownerOf(path);
          if (owner?.pid === me.pid && owner.host === me.host) rmSync(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = ownerOf(path);
        if (owner && owner.host !== me.host) {
          throw new ConfigError(
            `DATA_DIR ${dataDir} is in use by process ${owner.pid} on host ${owner.host}: the embedded database ` +
              `serves one process. If that host no longer runs it, delete ${path}.`,
          );
        }
        if (owner && owner.pid !== me.pid && isProcessRunning(owner.pid)) {
          throw new ConfigError(
            `DATA_DIR ${dataDir} is in use by process ${owner.pid}: the embedded database serves one process. ` +
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

/** The process a lock names; a lock from before hosts were named is this host's. */
function ownerOf(path: string): { pid: number; host: string } | undefined {
  try {
    const [pidText, host = hostname()] = readFileSync(path, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    return Number.isInteger(pid) && pid > 0 ? { pid, host } : undefined;
  } catch {
    return undefined;
  }
}
