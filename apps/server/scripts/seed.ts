import { parseArgs } from 'node:util';
import { buildApp } from '../src/app';
import { ensureFirstAdmin } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import { loadSecrets } from '../src/lib/secrets';
import { adminToken } from '../src/seed/admin-token';
import { defaultSeedOptions, seedProgramme } from '../src/seed/seed';

/** `npm run seed [-- --accounts 2000 --days 30 --per-day 220]`: fills the configured database with a demo programme. */
const { values } = parseArgs({
  options: { accounts: { type: 'string' }, days: { type: 'string' }, 'per-day': { type: 'string' } },
});
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  HOLD_SWEEP_INTERVAL_MS: '0',
});
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database, secrets: loadSecrets(config.DATA_DIR, config) });
  const admin = await ensureFirstAdmin(database.db, config);
  if (admin?.password) console.log(`First administrator: ${admin.username} / ${admin.password} (shown once)`);
  const started = performance.now();
  const result = await seedProgramme(app, database.db, await adminToken(app, database.db), {
    ...defaultSeedOptions,
    accounts: Number(values.accounts ?? defaultSeedOptions.accounts),
    days: Number(values.days ?? defaultSeedOptions.days),
    purchasesPerDay: Number(values['per-day'] ?? defaultSeedOptions.purchasesPerDay),
    log: (line) => console.log(`  ${line}`),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    result.seeded
      ? `Seeded in ${seconds} s: ${JSON.stringify(result)}`
      : 'The database already has accounts; nothing seeded.',
  );
  await app.close();
} finally {
  await database.close();
}
