import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config';
import { openDatabase } from './connection';
import { LOCK_FILE, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loyalty-lock-'));
  dirs.push(dir);
  return dir;
}

/** Another live process (it waits on its stdin), and a way to end it and wait for its exit. */
function otherProcess() {
  const child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const end = () => {
    child.kill('SIGKILL');
    return exited;
  };
  return { pid: child.pid!, end };
}

describe('DATA_DIR lock (one process per embedded database)', () => {
  it('refuses a folder another running process has open, naming it; takes it once that process is gone', async () => {
    const dir = freshDir();
    const other = otherProcess();
    // What that process's openDatabase would have left: the lock naming it.
    writeFileSync(join(dir, LOCK_FILE), `${other.pid}\n`);
    const refused = openDatabase({ dataDir: dir });
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(`is in use by process ${other.pid}`);
    // Killed -9: its lock stays behind, naming a process that is gone.
    await other.end();
    const handle = await openDatabase({ dataDir: dir });
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    await handle.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('a lock of another host is refused, naming it: whether that process runs cannot be known from here', () => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), `${process.pid} another-host.example\n`);
    expect(() => lockDataDir(dir)).toThrow(
      `is in use by process ${process.pid} on host another-host.example`,
    );
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  });

  it('a lock naming this very process (a container restarted as the same PID) is taken over', () => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), `${process.pid}\n`);
    const release = lockDataDir(dir);
    release();
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
