import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
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

  // Erasures an earlier version kept unkeyed are keyed before this server takes requests (migration 041), and
  // so are the request and file digests it kept plain (migration 048).
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
  let hurry: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (hurry) {
      // A second signal: an operator who will not wait for the drain or the grace period.
      app.log.warn({ signal }, 'second signal: shutting down without waiting');
      hurry();
      return;
    }
    const hurried = new Promise<void>((resolve) => {
      hurry = resolve;
    });
    app.log.info({ signal }, 'shutting down');
    void shutDown(app, database, config, hurried).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const where = config.DATABASE_URL ? 'PostgreSQL server' : `embedded PGlite in ${config.DATA_DIR}`;
  app.log.info(`Loyalty Admin on ${url} (${where})`);
  if (options.banner) process.stdout.write(options.banner);
  return { app, database };
}

/** After the grace period, how long the close may still take (a worker stuck on the database) before exit(1). */
const LAST_RESORT_MS = 5_000;

/**
 * The drain (SHUTDOWN_DRAIN_MS: `/readyz` 503, every request still served), then the close: the port stops
 * accepting, requests in flight are answered, a request on a kept-alive connection gets 503 (health/lifecycle.ts).
 * A client still sending after SHUTDOWN_GRACE_MS (a trickling CSV upload) held the process until Node's own
 * 300 s request timeout: its connection is closed instead. `hurried` (a second signal) skips both waits.
 */
export async function shutDown(
  app: App,
  database: Pick<DatabaseHandle, 'close'>,
  config: Pick<Config, 'SHUTDOWN_DRAIN_MS' | 'SHUTDOWN_GRACE_MS'>,
  hurried: Promise<void>,
): Promise<void> {
  app.lifecycle.draining = true;
  if (config.SHUTDOWN_DRAIN_MS > 0) {
    app.log.info({ ms: config.SHUTDOWN_DRAIN_MS }, 'draining: /readyz answers 503, requests still served');
    await Promise.race([delay(config.SHUTDOWN_DRAIN_MS), hurried]);
  }
  const closed = app.close();
  const overdue = await Promise.race([
    closed.then(() => false),
    Promise.race([delay(config.SHUTDOWN_GRACE_MS), hurried]).then(() => true),
  ]);
  if (overdue) {
    app.log.warn(
      { ms: config.SHUTDOWN_GRACE_MS },
      'shutdown grace period over: closing the connections still open',
    );
    app.server.closeAllConnections();
    setTimeout(() => {
      app.log.error('the close did not finish after the grace period; exiting');
      process.exit(1);
    }, LAST_RESORT_MS).unref();
    await closed;
  }
  // Work the close does not wait for (an import removing its spooled rows after its connection was closed)
  // still needs the database; bounded as the close is.
  await Promise.race([app.lifecycle.settled(), delay(LAST_RESORT_MS)]);
  await database.close();
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
