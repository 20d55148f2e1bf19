import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dropLeftoverDatabases, withAdminClient } from '../../apps/server/test/leftover-databases';

/**
 * The browser tests' server on PostgreSQL (the web server command when DATABASE_URL is set): creates a fresh
 * database `loyalty_e2e_<pid>_<random>` on that server, runs the real server on it as a child process, and
 * drops the database when Playwright stops it (SIGTERM) or the server exits. A run killed outright leaves the
 * database behind with a dead pid in its name: the next run drops it. On PostgreSQL the two workers' requests
 * run side by side, where PGlite serves one connection at a time.
 */
const base = process.env.DATABASE_URL;
if (!base)
  throw new Error('serve.ts needs DATABASE_URL (the PostgreSQL server to create the run database on)');

const dropped = await dropLeftoverDatabases(base);
if (dropped.length > 0) console.error(`dropped ${dropped.length} leftover test database(s) of killed runs`);
const name = `loyalty_e2e_${process.pid}_${randomBytes(6).toString('hex')}`;
await withAdminClient(base, (c) => c.query(`create database ${name}`));
const url = new URL(base);
url.pathname = `/${name}`;

const serverFile = fileURLToPath(new URL('../../apps/server/src/server.ts', import.meta.url));
// The same Node with the same TypeScript loader this script runs under (tsx), without another CLI wrapper.
const server: ChildProcess = spawn(process.execPath, [...process.execArgv, serverFile], {
  env: { ...process.env, DATABASE_URL: url.toString() },
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
    await withAdminClient(base as string, (c) => c.query(`drop database if exists ${name} with (force)`));
    process.exit(code);
  })();
  return finishing;
}

server.once('exit', (code) => void finish(code ?? 1));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void finish(0));
