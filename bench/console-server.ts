import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ConsoleServer {
  base: string;
  /** The admin's session token. */
  token: string;
  stop: () => void;
}

async function waitForReady(server: ChildProcess, base: string) {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server not ready after 60 s');
}

/**
 * The real server with the built console on a fresh PGlite data folder, a small demo programme seeded (the
 * dashboard has data to draw), and the admin signed in. For benches that load the console in a browser.
 */
export async function startSeededConsole(root: string, port: number): Promise<ConsoleServer> {
  const base = `http://127.0.0.1:${port}`;
  const password = 'bench-console-pw';
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-console-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: password,
    LOG_LEVEL: 'warn',
  };
  execFileSync(
    'npx',
    ['tsx', 'apps/server/scripts/seed.ts', '--accounts', '120', '--days', '7', '--per-day', '20'],
    { cwd: root, env, stdio: 'ignore' },
  );
  // node itself (not npx) so the PID killed at the end is the server's.
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverErrors = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    serverErrors = (serverErrors + chunk.toString()).slice(-2000);
  });
  server.on('exit', (code) => {
    if (code) console.error(`server exited with ${code}:\n${serverErrors}`);
  });
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForReady(server, base);
    const login = await fetch(`${base}/auth/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const { token } = (await login.json()) as { token: string };
    if (!token) throw new Error(`sign-in failed: ${login.status}`);
    return { base, token, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
