import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pollUntil } from './poll';

const serverEntry = fileURLToPath(new URL('../../src/server.ts', import.meta.url));
// `node --import tsx server.ts`, not the tsx CLI: the CLI runs the server in a second, grandchild process,
// so a kill -9 of the PID we hold would leave the real server running. The same Node that runs the tests
// runs the servers (the Node 24 tier runs both on Node 24).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Shared by every server of a test, as a real fleet shares them. */
export const FLEET_SECRETS = {
  JWT_SECRET: 'fault-tests-jwt-secret-0123456789abcdef',
  POS_KEY_SECRET: 'ab'.repeat(32),
};

export interface ServerProcess {
  pid: number;
  port: number;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  alive(): boolean;
  /** Sends a signal to this PID only, and waits (bounded) for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `tsx apps/server/src/server.ts` as a child process on 127.0.0.1:`port`. */
export function spawnServer(options: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
}): ServerProcess {
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-fault-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', tsxLoader, serverEntry], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: dataDir,
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      HOLD_SWEEP_INTERVAL_MS: '1000',
      ...FLEET_SECRETS,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.pid === undefined) throw new Error('could not start the server process');
  const pid = child.pid;
  return {
    pid,
    port: options.port,
    url: `http://127.0.0.1:${options.port}`,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal = 'SIGTERM') {
      try {
        if (child.exitCode === null && child.signalCode === null) process.kill(pid, signal);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), 15_000);
        });
        const late = await Promise.race([exited.then(() => false), timedOut]).finally(() =>
          clearTimeout(timer),
        );
        if (late) {
          // Still reported, but not left running: a server that ignored the signal would keep its port and
          // its database connections past the test.
          process.kill(pid, 'SIGKILL');
          await exited;
          throw new Error(`server ${pid} did not exit on ${signal}`);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

export async function readyStatus(url: string): Promise<number | null> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    return res.status;
  } catch {
    return null;
  }
}

/** Polls `/readyz` until it answers `status` (bounded); fails with the server's output otherwise. */
export async function waitForReady(server: ServerProcess, status = 200, attempts = 600): Promise<void> {
  await pollUntil(
    async () => {
      if (!server.alive()) throw new Error(`server ${server.pid} exited:\n${server.output()}`);
      return (await readyStatus(server.url)) === status;
    },
    { attempts, what: `server ${server.pid} /readyz ${status}`, detail: server.output },
  );
}

/**
 * Stops every server at once (a server that ignores SIGTERM is killed outright), then reports the first that
 * did not stop on its signal: a test's clean-up after it (e.g. dropping the database) still runs.
 */
export async function stopServers(servers: readonly ServerProcess[]): Promise<void> {
  const results = await Promise.allSettled(servers.map((server) => server.kill()));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The URL a server started with `port: 0` (any free port, so the test takes none of the tier's) listens on,
 * from its start-up log line: the server must log at `info` (`env: { LOG_LEVEL: 'info' }`).
 */
export async function listeningUrl(server: ServerProcess): Promise<string> {
  let url: string | undefined;
  await pollUntil(
    () => {
      if (!server.alive()) throw new Error(`server ${server.pid} exited:\n${server.output()}`);
      url = /Loyalty Admin on (http:\/\/[\d.]+:\d+)/.exec(server.output())?.[1];
      return url !== undefined;
    },
    { attempts: 600, what: `server ${server.pid} listening`, detail: server.output },
  );
  return url!;
}
