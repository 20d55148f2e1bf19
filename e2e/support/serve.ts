import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dropLeftoverDatabases, withAdminClient } from '../../apps/server/test/leftover-databases';
import { removeOwnedFolders } from './owned-folders';

/**
 * The browser tests' server (Playwright's web server command): runs the real server as a child process and,
 * when Playwright stops it (SIGTERM) or the server exits, removes what the run made: the embedded database's
 * folder and the copy of the built console (support/env.ts), and on PostgreSQL (DATABASE_URL set) the fresh
 * database `loyalty_e2e_<pid>_<random>` it created on that server. A run killed outright leaves the database
 * behind with a dead pid in its name: the next run drops it. On PostgreSQL the two workers' requests run side
 * by side, where PGlite serves one connection at a time.
 */
const base = process.env.DATABASE_URL;
let runDatabase: { name: string; url: string } | undefined;
if (base) {
  const dropped = await dropLeftoverDatabases(base);
  if (dropped.length > 0) console.error(`dropped ${dropped.length} leftover test database(s) of killed runs`);
  const name = `loyalty_e2e_${process.pid}_${randomBytes(6).toString('hex')}`;
  await withAdminClient(base, (c) => c.query(`create database ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  runDatabase = { name, url: url.toString() };
}

const serverFile = fileURLToPath(new URL('../../apps/server/src/server.ts', import.meta.url));
// The same Node with the same TypeScript loader this script runs under (tsx), without another CLI wrapper.
const server: ChildProcess = spawn(process.execPath, [...process.execArgv, serverFile], {
  env: runDatabase ? { ...process.env, DATABASE_URL: runDatabase.url } : process.env,
  stdio: 'inherit',
});

// One shutdown, whichever comes first: Playwright's signal or the server's own exit.
let finishing: Promise<never> | undefined;
function finish(code: number): Promise<never> {
  finishing ??= (async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    if (runDatabase) {
      const { name } = runDatabase;
      await withAdminClient(base as string, (c) => c.query(`drop database if exists ${name} with (force)`));
    }
    removeOwnedFolders();
    process.exit(code);
  })();
  return finishing;
}

server.once('exit', (code) => void finish(code ?? 1));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void finish(0));
