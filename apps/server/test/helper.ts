import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect, inject } from 'vitest';
import { type App, buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { type DatabaseHandle, type DatabaseOptions, openDatabase } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import { type LotProof, verifyLedger } from '../src/modules/ledger/verify-ledger';
import { createUser } from '../src/modules/users/users.service';
import { checkoutPGlite } from './pglite-pool';
import {
  serverUrl,
  TEST_DATABASE_PREFIX,
  testDatabaseName,
  urlOfDatabase,
  withAdminClient,
} from './test-database';

// The migrated template of this run (test/global-setup.ts), read once per test file.
let templateDataDir: Blob | undefined;

function templateTar(): Blob | undefined {
  const file = inject('templateDataDir');
  if (!file) return undefined;
  templateDataDir ??= new Blob([readFileSync(file)]);
  return templateDataDir;
}

/**
 * Test database: an in-memory PGlite in the template's state (this worker's engine, reset: pglite-pool.ts), or, when TEST_DATABASE_URL / DATABASE_URL
 * points at a PostgreSQL server, a fresh database created on it and dropped afterwards. Both start as a
 * copy of the run's migrated template when the global setup made one, and migrate themselves otherwise
 * (e.g. under a vitest config without the global setup).
 */
export async function openTestDatabase(
  options: {
    skipMigrations?: readonly string[];
    /** PostgreSQL server only: the pool's own options, over the test defaults below. */
    pool?: Pick<DatabaseOptions, 'poolSize' | 'idleInTransactionTimeoutMs'>;
  } = {},
): Promise<DatabaseHandle> {
  const skip = options.skipMigrations;
  const base = serverUrl();
  if (!base) {
    const loadDataDir = skip ? undefined : templateTar();
    if (loadDataDir) return checkoutPGlite(loadDataDir);
    const handle = await openDatabase({});
    await migrateToLatest(handle.db, { skip });
    return handle;
  }
  const template = skip ? undefined : inject('templateDatabase');
  const name = testDatabaseName(TEST_DATABASE_PREFIX, inject('testRunPid') ?? process.pid);
  await withAdminClient(base, (c) =>
    c.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  // No idle-in-transaction limit (the server's own setting, 0 here): tests hold a lock in a transaction of
  // their own on purpose while requests queue behind it, which on a loaded machine can outlast a minute.
  const handle = await openDatabase({
    databaseUrl: urlOfDatabase(base, name),
    poolSize: 20,
    idleInTransactionTimeoutMs: 0,
    ...options.pool,
  });
  if (!template) await migrateToLatest(handle.db, { skip });
  return {
    ...handle,
    async close() {
      await handle.close();
      await withAdminClient(base, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

export const PASSWORD = 'correct-horse-battery';

export interface TestContext {
  app: App;
  database: DatabaseHandle;
  /** Bearer tokens of one user per role, created at start. */
  tokens: { ADMIN: string; MANAGER: string; VIEWER: string };
  users: { ADMIN: string; MANAGER: string; VIEWER: string };
  login(username: string, password?: string): Promise<LightMyRequestResponse>;
}

/**
 * The real app with the test secrets on a given database, ready. Closing it leaves the database open: a
 * second app on a context's database (e.g. with another configuration) is closed by its test.
 * The ledger's sweepers are off unless a test sets their intervals: the points-expiry run also voids lapsed
 * holds, and its 60 s timer fired inside files that count what a sweep by hand voided or expired once a
 * loaded machine made them run that long.
 */
/** The session signing key of every test app (`buildTestApp`): tests sign tokens of their own with it. */
export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-0123456789';

export async function buildTestApp(database: DatabaseHandle, env: Record<string, string> = {}): Promise<App> {
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent',
      HOLD_SWEEP_INTERVAL_MS: '0',
      POINTS_EXPIRY_INTERVAL_MS: '0',
      ...env,
    }),
    database,
    secrets: { jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) },
  });
  await app.ready();
  return app;
}

export interface TestContextOptions {
  /**
   * Check after the file's tests that every cached balance is its ledger (verifyLedger). On by default:
   * every file that writes points proves the invariant. Off only for a file that breaks it on purpose.
   */
  verifyLedger?: boolean;
  /**
   * Also prove the points lots (verifyLots; on by default). Off for a file whose workload writes operations
   * and balances itself, the way the ledger does, without their lots.
   */
  verifyLots?: boolean;
  /** Leave these migrations out, as the database was before they landed. */
  skipMigrations?: readonly string[];
}

/**
 * Builds the real app on a fresh database with one user per role; closed after the file's tests, once the
 * ledger has been verified (see TestContextOptions).
 */
export async function createTestContext(
  env: Record<string, string> = {},
  options: TestContextOptions = {},
): Promise<TestContext> {
  const database = await openTestDatabase({ skipMigrations: options.skipMigrations });
  const app = await buildTestApp(database, env);

  const login = (username: string, password = PASSWORD) =>
    app.inject({ method: 'POST', url: '/auth/api/v1/login', payload: { username, password } });

  const users = { ADMIN: '', MANAGER: '', VIEWER: '' };
  const tokens = { ADMIN: '', MANAGER: '', VIEWER: '' };
  for (const role of ['ADMIN', 'MANAGER', 'VIEWER'] as const) {
    const user = await createUser(database.db, null, {
      username: role.toLowerCase(),
      password: PASSWORD,
      email: `${role.toLowerCase()}@example.com`,
      fullName: null,
      role,
    });
    users[role] = user.id;
    tokens[role] = (await login(user.username)).json().token;
  }

  afterAll(async () => {
    try {
      if (options.verifyLedger !== false) {
        const report = await verifyLedger(database.db);
        const { differences, holdsCapturedTwice, overReturnedLines } = report;
        const sound: LotProof = {
          lotsOff: [],
          accountsOff: [],
          debitsOff: [],
          holdsUncovered: [],
          creditsOff: [],
          expiriesOff: [],
        };
        const lots = options.verifyLots === false ? sound : report.lots;
        expect(
          { differences, holdsCapturedTwice, overReturnedLines, lots },
          'the ledger invariant after this file (a file that seeds raw balances on purpose opts out: createTestContext(env, { verifyLedger: false }))',
        ).toEqual({
          differences: [],
          holdsCapturedTwice: [],
          overReturnedLines: [],
          lots: sound,
        });
      }
    } finally {
      await app.close();
      await database.close();
    }
  });
  return { app, database, tokens, users, login };
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
