import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshotConsole } from './console-dist';
import { ownFolder } from './owned-folders';

/** The server the browser tests drive: the real built product on a throwaway embedded database. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const ADMIN = { username: 'admin', password: 'e2e-admin-password' };

// The config file is evaluated by the runner and by every worker; the first evaluation picks the folder
// and the environment carries it to the others, so they all talk about the same database.
// Folders this run creates are its own (support/owned-folders.ts): removed when it ends.
process.env.E2E_DATA_DIR ??= ownFolder(mkdtempSync(join(tmpdir(), 'loyalty-e2e-')));
export const DATA_DIR = process.env.E2E_DATA_DIR;

// A copy of the built console taken once per run (see snapshotConsole).
process.env.E2E_WEB_DIST ??= ownFolder(snapshotConsole('loyalty-e2e-web-')) ?? '';

export const serverEnv: Record<string, string> = {
  PORT: String(E2E_PORT),
  HOST: '127.0.0.1',
  DATA_DIR,
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  LOG_LEVEL: 'warn',
  // Empty means unset to the server: it then serves apps/web/dist itself.
  WEB_DIST: process.env.E2E_WEB_DIST,
  // Tests sign in with wrong passwords on purpose; keep the limiter out of their way.
  LOGIN_MAX_FAILURES_PER_USERNAME: '1000',
  LOGIN_MAX_FAILURES_PER_ADDRESS: '10000',
  // webhooks.spec.ts: receivers on http://127.0.0.1, and a failing delivery is retried once, after a second.
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1',
  // webhooks.spec.ts holds a receiver's answers to show a backlog: the longest time limit keeps it there
  // for the test however slow the machine (no receiver in the tests is left without an answer).
  WEBHOOK_TIMEOUT_MS: '60000',
};
