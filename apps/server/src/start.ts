import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type App, buildApp } from './app';
import { ensureFirstAdmin } from './bootstrap';
import type { Config } from './config';
import { type DatabaseHandle, openDatabase } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { assertSharedSecrets } from './db/secret-fingerprints';
import { loadSecrets } from './lib/secrets';
import { rebaseRestoredEvents } from './modules/events/restored-xids';
import { erasedClientSecret } from './modules/member-data/erased-client-secret';
import { keyErasedClientIds } from './modules/member-data/member-data.repository';
import { databaseProblem, dataDirProblem, explained, listenProblem } from './start-problems';

export interface StartOptions {
  /** Runs after migrations and the first-admin check, before the port opens (the demo seeds here). */
  beforeListen?: (app: App, database: DatabaseHandle) => Promise<void>;
  banner?: string;
}

/** Migrates, builds the app, creates the first admin if needed and listens. Used by `server.ts` and `demo`. */
export async function startServer(config: Config, options: StartOptions = {}) {
  const database = await explained(
    () =>
      openDatabase({
        databaseUrl: config.DATABASE_URL,
        dataDir: config.DATA_DIR,
        idleInTransactionTimeoutMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      }),
    (error) => databaseProblem(error, config),
  );
  // The first query is the first connection to a PostgreSQL server: where a wrong URL shows.
  const applied = await explained(
    () => migrateToLatest(database.db),
    (error) => databaseProblem(error, config),
    () => database.close(),
  );
  const secrets = await explained(
    () => loadSecrets(config.DATA_DIR, config),
    (error) => dataDirProblem(error, config.DATA_DIR),
    () => database.close(),
  );
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

  // Erasures an earlier version kept unkeyed are keyed before this server takes requests (migration 041).
  await keyErasedClientIds(database.db, erasedClientSecret(secrets));

  const admin = await ensureFirstAdmin(database.db, config);
  if (admin?.password) {
    // Printed once, to the terminal only (not through the JSON log, which may be shipped elsewhere).
    process.stdout.write(
      `\n  First administrator created.\n  Username: ${admin.username}\n  Password: ${admin.password}\n  Keep it now: it is not shown again.\n\n`,
    );
  }
  await options.beforeListen?.(app, database);

  // On failure the workers started with the app are stopped, so a caller that goes on is not left with them.
  const url = await listen(app, config, async () => {
    await app.close();
    await database.close();
  });
  // Registered once listening: a start that failed leaves no handler behind on the process.
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  const where = config.DATABASE_URL ? 'PostgreSQL server' : `embedded PGlite in ${config.DATA_DIR}`;
  app.log.info(`Loyalty Admin on ${url} (${where})`);
  if (options.banner) process.stdout.write(options.banner);
  return { app, database };
}

/**
 * Opens the port and returns the URL it listens on, with the port the system gave (PORT=0 asks for any free
 * one). A port taken or a host that is no address here becomes a ConfigError naming PORT or HOST.
 */
export async function listen(
  app: Pick<FastifyInstance, 'listen' | 'server'>,
  config: Pick<Config, 'PORT' | 'HOST'>,
  undo?: () => Promise<void>,
): Promise<string> {
  await explained(
    () => app.listen({ port: config.PORT, host: config.HOST }),
    (error) => listenProblem(error, config),
    undo,
  );
  const address = app.server.address() as AddressInfo | null;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${address?.port ?? config.PORT}`;
}
