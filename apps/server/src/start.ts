import { type App, buildApp } from './app';
import { ensureFirstAdmin } from './bootstrap';
import type { Config } from './config';
import { type DatabaseHandle, openDatabase } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { assertSharedSecrets } from './db/secret-fingerprints';
import { loadSecrets } from './lib/secrets';
import { rebaseRestoredEvents } from './modules/events/restored-xids';

export interface StartOptions {
  /** Runs after migrations and the first-admin check, before the port opens (the demo seeds here). */
  beforeListen?: (app: App, database: DatabaseHandle) => Promise<void>;
  banner?: string;
}

/** Migrates, builds the app, creates the first admin if needed and listens. Used by `server.ts` and `demo`. */
export async function startServer(config: Config, options: StartOptions = {}) {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    idleInTransactionTimeoutMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  });
  const applied = await migrateToLatest(database.db);
  const secrets = loadSecrets(config.DATA_DIR, config);
  await assertSharedSecrets(database.db, secrets);
  const app = await buildApp({ config, database, secrets });
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  const rebased = await rebaseRestoredEvents(database.db);
  if (rebased) {
    app.log.warn(
      rebased,
      'events restored from another cluster put before every new transaction (feed order)',
    );
  }

  const admin = await ensureFirstAdmin(database.db, config);
  if (admin?.password) {
    // Printed once, to the terminal only (not through the JSON log, which may be shipped elsewhere).
    process.stdout.write(
      `\n  First administrator created.\n  Username: ${admin.username}\n  Password: ${admin.password}\n  Keep it now: it is not shown again.\n\n`,
    );
  }
  await options.beforeListen?.(app, database);

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? 'PostgreSQL server' : `embedded PGlite in ${config.DATA_DIR}`;
  app.log.info(`Loyalty Admin on http://${config.HOST}:${config.PORT} (${where})`);
  if (options.banner) process.stdout.write(options.banner);
  return { app, database };
}
