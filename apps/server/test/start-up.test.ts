import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config';
import { listen } from '../src/start';
import { databaseProblem } from '../src/start-problems';

const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const scratch = mkdtempSync(join(tmpdir(), 'start-up-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `node --import tsx server.ts` with only these variables, run to its exit (no timers: it exits by itself). */
function runServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', tsxLoader, serverEntry], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

describe('a start that fails names the variable in one line, without a stack', () => {
  it('a DATA_DIR that is a file, and a DATABASE_URL nothing answers on', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const [dataDir, database] = await Promise.all([
      runServer({ DATA_DIR: file }),
      runServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x', DATA_DIR: join(scratch, 'data') }),
    ]);
    expect(dataDir).toEqual({
      code: 1,
      stderr: `DATA_DIR: ${JSON.stringify(file)} is not a folder (a file is in the way) (EEXIST)\n`,
    });
    expect(database).toEqual({
      code: 1,
      stderr: 'DATABASE_URL: cannot connect to 127.0.0.1:1 (ECONNREFUSED)\n',
    });
  });

  it("names DATABASE_URL with the server's own words when it refuses the database or the role", () => {
    const config = { DATABASE_URL: 'postgres://ghost:pw@db.example:6543/x', DATA_DIR: './data' };
    const refusal = (message: string, code: string) => Object.assign(new Error(message), { code });
    expect(databaseProblem(refusal('database "x" does not exist', '3D000'), config)).toBe(
      'DATABASE_URL: database "x" does not exist',
    );
    expect(databaseProblem(refusal('role "ghost" does not exist', '28000'), config)).toBe(
      'DATABASE_URL: role "ghost" does not exist',
    );
    expect(databaseProblem(refusal('getaddrinfo ENOTFOUND db.example', 'ENOTFOUND'), config)).toBe(
      'DATABASE_URL: cannot resolve the host of db.example:6543 (ENOTFOUND)',
    );
    // A statement's own error is no configuration problem: it keeps its stack.
    expect(databaseProblem(refusal('syntax error', '42601'), config)).toBeUndefined();
  });
});

describe('listening', () => {
  const taken: Server = createServer();
  const apps: ReturnType<typeof Fastify>[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await new Promise((resolve) => taken.close(resolve));
  });
  const bare = () => {
    const app = Fastify({ logger: false });
    apps.push(app);
    return app;
  };

  it('reports the port the system gave for PORT=0, not 0', async () => {
    const url = await listen(bare(), { PORT: 0, HOST: '127.0.0.1' });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
  });

  it('names PORT when the port is taken, and HOST when it is no address', async () => {
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const inUse = listen(bare(), { PORT: port, HOST: '127.0.0.1' });
    await expect(inUse).rejects.toThrow(ConfigError);
    await expect(inUse).rejects.toThrow(`PORT: ${port} is already in use on 127.0.0.1`);
    await expect(listen(bare(), { PORT: 0, HOST: 'not a host' })).rejects.toThrow(
      /^HOST: cannot resolve "not a host" \(E[A-Z_]+\)$/,
    );
  });
});
