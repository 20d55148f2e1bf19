import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll } from 'vitest';
import { type App, buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { type DatabaseHandle, openDatabase } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import { createUser } from '../src/modules/users/users.service';

/**
 * Test database: a fresh in-memory PGlite per test file, or, when TEST_DATABASE_URL / DATABASE_URL
 * points at a PostgreSQL server, a fresh database created on it and dropped afterwards.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({});
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `loyalty_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
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

/** Builds the real app on a fresh database with one user per role; closed after the file's tests. */
export async function createTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const database = await openTestDatabase();
  const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', ...env });
  const app = await buildApp({
    config,
    database,
    secrets: { jwtSecret: 'test-secret-that-is-long-enough-0123456789', posKeySecret: '0'.repeat(64) },
  });
  await app.ready();

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
    await app.close();
    await database.close();
  });
  return { app, database, tokens, users, login };
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
