import { buildApp } from './app';
import { ensureFirstAdmin } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { loadSecrets } from './lib/secrets';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const applied = await migrateToLatest(database.db);
  const secrets = loadSecrets(config.DATA_DIR, config);
  const app = await buildApp({ config, database, secrets });
  if (applied.length) app.log.info({ applied }, 'migrations applied');

  const admin = await ensureFirstAdmin(database.db, config);
  if (admin?.password) {
    // Printed once, to the terminal only (not through the JSON log, which may be shipped elsewhere).
    process.stdout.write(
      `\n  First administrator created.\n  Username: ${admin.username}\n  Password: ${admin.password}\n  Keep it now: it is not shown again.\n\n`,
    );
  }

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
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
