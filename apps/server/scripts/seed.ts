import { buildApp } from '../src/app';
import { ensureFirstAdmin } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { migrateToLatest } from '../src/db/migrate';
import { assertSharedSecrets } from '../src/db/secret-fingerprints';
import { loadSecrets } from '../src/lib/secrets';
import { adminToken } from '../src/seed/admin-token';
import { defaultSeedOptions, seedProgramme } from '../src/seed/seed';
import { parseSeedArguments, SeedUsageError } from '../src/seed/seed-arguments';
import {
  databaseProblem,
  dataDirProblem,
  exitOnStartProblem,
  explained,
  openScriptDatabase,
} from '../src/start-problems';

/**
 * `npm run seed [-- --accounts 2000 --days 30 --per-day 220]`: fills the configured database with a demo
 * programme. Exit code 2 for bad arguments (nothing written), 1 when it could not seed (a database that
 * already has accounts included).
 */
let seedArguments: ReturnType<typeof parseSeedArguments>;
try {
  seedArguments = parseSeedArguments(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof SeedUsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}

try {
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    HOLD_SWEEP_INTERVAL_MS: '0',
  });
  // A first use like the server's first start: an empty DATA_DIR gets its database, migrated below.
  const database = await openScriptDatabase(config, { create: true });
  try {
    await explained(
      () => migrateToLatest(database.db),
      (error) => databaseProblem(error, config),
    );
    const secrets = await explained(
      () => loadSecrets(config.DATA_DIR, config),
      (error) => dataDirProblem(error, config.DATA_DIR),
    );
    // The servers' check: POS keys written with other secrets than theirs could never be opened by them.
    await assertSharedSecrets(database.db, secrets);
    const app = await buildApp({ config, database, secrets });
    const admin = await ensureFirstAdmin(database.db, config);
    if (admin?.password)
      console.log(`First administrator: ${admin.username} / ${admin.password} (shown once)`);
    const started = performance.now();
    const result = await seedProgramme(app, database.db, await adminToken(app, database.db), {
      ...defaultSeedOptions,
      ...seedArguments,
      log: (line) => console.log(`  ${line}`),
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.seeded) console.log(`Seeded in ${seconds} s: ${JSON.stringify(result)}`);
    else {
      // It could not seed (README: exit 1); `npm run demo` seeds through seedProgramme, not this script.
      console.error('The database already has accounts; nothing seeded.');
      process.exitCode = 1;
    }
    await app.close();
  } finally {
    await database.close();
  }
} catch (error) {
  exitOnStartProblem(error);
}
