import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connection';
import { migrateToLatest, migrationState } from '../src/db/migrate';
import { migrations } from '../src/db/migrations';
import { assertSharedSecrets } from '../src/db/secret-fingerprints';
import {
  serverUrl,
  TEST_DATABASE_PREFIX,
  testDatabaseName,
  urlOfDatabase,
  withAdminClient,
} from '../test/test-database';

// The scripts tell a database, a DATA_DIR or a variable they cannot use in the server's one line
// (start-problems.ts), not a stack; verify-ledger's "could not run" is not its "differences found" (1).
// In the fault tier, not the API tier: each case boots a script as a child process (about 50 s in all on two
// cores), which `npm test` would pay on every run for what changes rarely.
const scripts = {
  migrate: '../src/db/migrate-cli.ts',
  verifyLedger: '../scripts/verify-ledger.ts',
  rebuildDerived: '../scripts/rebuild-derived.ts',
  seed: '../scripts/seed.ts',
  demo: '../scripts/demo.ts',
};
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const scratch = mkdtempSync(join(tmpdir(), 'script-problems-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const aFile = join(scratch, 'a-file');
writeFileSync(aFile, '');
const unreachable = 'postgres://postgres@127.0.0.1:1/x';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node --import tsx <script> …args` with only these variables, run to its exit (it exits by itself). */
function run(script: keyof typeof scripts, env: Record<string, string>, args: string[] = []): Promise<Run> {
  const entry = fileURLToPath(new URL(scripts[script], import.meta.url));
  const child = spawn(process.execPath, ['--import', tsxLoader, entry, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    out.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out.stderr += chunk;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, ...out })));
}

const notAFolder = `DATA_DIR: ${JSON.stringify(aFile)} is not a folder (a file is in the way) (EEXIST)\n`;
const cannotConnect = 'DATABASE_URL: cannot connect to 127.0.0.1:1 (ECONNREFUSED)\n';

describe('the scripts fail in one line, as the server does', () => {
  it('a DATA_DIR that is a file, and a bad PORT migrate does not use', async () => {
    const results = await Promise.all([
      run('migrate', { DATA_DIR: aFile, PORT: 'eighty' }),
      run('rebuildDerived', { DATA_DIR: aFile }),
      run('seed', { DATA_DIR: aFile }),
      run('verifyLedger', { DATA_DIR: aFile }),
    ]);
    expect(results.map(({ code, stderr }) => ({ code, stderr }))).toEqual([
      { code: 1, stderr: notAFolder },
      { code: 1, stderr: notAFolder },
      { code: 1, stderr: notAFolder },
      { code: 2, stderr: notAFolder },
    ]);
  });

  it('a DATABASE_URL nothing answers on; verify-ledger exits 2 (could not run), not 1 (differences)', async () => {
    const [migrate, verify] = await Promise.all([
      run('migrate', { DATABASE_URL: unreachable }),
      run('verifyLedger', { DATABASE_URL: unreachable }),
    ]);
    expect(migrate).toMatchObject({ code: 1, stderr: cannotConnect });
    expect(verify).toMatchObject({ code: 2, stderr: cannotConnect });
  });

  it.runIf(serverUrl())('a database the PostgreSQL server does not have', async () => {
    const missing = urlOfDatabase(serverUrl()!, `loyalty_missing_${process.pid}`);
    const result = await run('verifyLedger', { DATABASE_URL: missing });
    expect(result).toMatchObject({
      code: 2,
      stderr: `DATABASE_URL: database "loyalty_missing_${process.pid}" does not exist\n`,
    });
  });

  it('seed refuses bad arguments before it opens anything', async () => {
    const result = await run('seed', { DATABASE_URL: unreachable }, ['--accounts', 'abc']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--accounts must be a whole number from 1 to \d+ \(not "abc"\)\nUsage: /);
  });

  it('the demo ignores DATABASE_URL: it runs on its own embedded database', async () => {
    const result = await run('demo', { DATABASE_URL: unreachable, DEMO_DATA_DIR: aFile, PORT: '0' });
    expect(result).toMatchObject({ code: 1, stderr: notAFolder });
    expect(result.stdout).toContain('DATABASE_URL is ignored');
  });
});

// A mistyped DATA_DIR once got a new empty database (39 MB) from verify-ledger, whose "not migrated" hint then
// led to "Accounts checked: 0 / Ledger OK". The scripts that read a database refuse a folder that holds none
// and leave nothing behind; migrate and seed create one there, as the server does on its first start.
const noDatabase = (dataDir: string, why: string) =>
  `DATA_DIR: ${JSON.stringify(dataDir)} ${why}: check DATA_DIR (npm run migrate creates a new database there)\n`;
const notMigrated = new RegExp(
  `^The database is not migrated \\(pending: ${Object.keys(migrations).sort()[0]}, .*\\); run npm run migrate first\\.\n$`,
);

describe('the scripts that read a database do not make one', () => {
  it('a DATA_DIR that does not exist: refused, and no folder is left', async () => {
    const missing = join(scratch, 'mistyped', 'data');
    const [verify, rebuild] = await Promise.all([
      run('verifyLedger', { DATA_DIR: missing }),
      run('rebuildDerived', { DATA_DIR: missing }),
    ]);
    const refused = noDatabase(missing, 'does not exist');
    expect(verify).toMatchObject({ code: 2, stderr: refused });
    expect(rebuild).toMatchObject({ code: 1, stderr: refused });
    expect(existsSync(join(scratch, 'mistyped'))).toBe(false);
  });

  it('a folder without a database (no PG_VERSION): refused, and left as it was', async () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    const [verify, rebuild] = await Promise.all([
      run('verifyLedger', { DATA_DIR: empty }),
      run('rebuildDerived', { DATA_DIR: empty }),
    ]);
    const refused = noDatabase(empty, 'holds no database (no PG_VERSION)');
    expect(verify).toMatchObject({ code: 2, stderr: refused });
    expect(rebuild).toMatchObject({ code: 1, stderr: refused });
    expect(readdirSync(empty)).toEqual([]);
  });
});

// rebuild-derived is a recompute: run from a new checkout against production it used to apply that checkout's
// migrations under the servers still running the old code (README, "Upgrades").
describe('rebuild-derived refuses a database that is not migrated, and migrates nothing', () => {
  it('on PGlite', async () => {
    const dataDir = join(scratch, 'not-migrated');
    await (await openDatabase({ dataDir })).close();
    const result = await run('rebuildDerived', { DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(notMigrated);
    const database = await openDatabase({ dataDir });
    try {
      expect((await migrationState(database.db)).pending).toEqual(Object.keys(migrations).sort());
    } finally {
      await database.close();
    }
  });

  it.runIf(serverUrl())('on PostgreSQL', async () => {
    const base = serverUrl()!;
    const name = testDatabaseName(TEST_DATABASE_PREFIX, process.pid);
    await withAdminClient(base, (client) => client.query(`create database ${name}`));
    try {
      const url = urlOfDatabase(base, name);
      const result = await run('rebuildDerived', { DATABASE_URL: url });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(notMigrated);
      const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
      try {
        expect((await migrationState(database.db)).pending).toEqual(Object.keys(migrations).sort());
      } finally {
        await database.close();
      }
    } finally {
      await withAdminClient(base, (client) => client.query(`drop database if exists ${name} with (force)`));
    }
  });
});

describe('a DATA_DIR its server uses, with its secrets', () => {
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir);
  const fleet = { jwtSecret: 'j'.repeat(48), posKeySecret: 'ab'.repeat(32) };

  it('is in use for the scripts while the server runs, and seed refuses other secrets', async () => {
    const server = await openDatabase({ dataDir });
    try {
      await migrateToLatest(server.db);
      await assertSharedSecrets(server.db, fleet);
      const inUse = await run('migrate', { DATA_DIR: dataDir });
      expect(inUse).toMatchObject({
        code: 1,
        stderr: `DATA_DIR ${dataDir} is in use by process ${process.pid}: the embedded database serves one process. Stop that one first, or set DATABASE_URL to share a PostgreSQL server between several.\n`,
      });
    } finally {
      await server.close();
    }
    // POS keys written with another POS_KEY_SECRET could never be opened by the servers (reveal: 500).
    const seed = await run(
      'seed',
      { DATA_DIR: dataDir, JWT_SECRET: fleet.jwtSecret, POS_KEY_SECRET: 'cd'.repeat(32) },
      ['--accounts', '1', '--days', '1', '--per-day', '1'],
    );
    expect(seed.code).toBe(1);
    expect(seed.stderr).toMatch(/^POS_KEY_SECRET is not the one this database's servers use .*\n$/);
  });

  it('seed exits 1 on a database that already has accounts (it could not seed)', async () => {
    const server = await openDatabase({ dataDir });
    try {
      await server.db.insertInto('accounts').values({ client_id: 'C-already-here' }).execute();
    } finally {
      await server.close();
    }
    const seed = await run(
      'seed',
      { DATA_DIR: dataDir, JWT_SECRET: fleet.jwtSecret, POS_KEY_SECRET: fleet.posKeySecret },
      ['--accounts', '1', '--days', '1', '--per-day', '1'],
    );
    expect(seed).toMatchObject({
      code: 1,
      stderr: 'The database already has accounts; nothing seeded.\n',
    });
  });
});
