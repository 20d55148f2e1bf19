import { loadConfig } from '../src/config';
import { adminToken } from '../src/seed/admin-token';
import { defaultSeedOptions, seedProgramme } from '../src/seed/seed';
import { startServer } from '../src/start';
import { exitOnStartProblem } from '../src/start-problems';

/**
 * `npm run demo`: the product on its own embedded database (`./data-demo`), seeded with 30 days of a
 * living programme on first run, so the dashboard has something to show. Your `./data` is untouched, and so
 * is the database of DATABASE_URL: it is ignored (it used to get 2,000 demo accounts and admin/demo-password).
 */
const { DATABASE_URL: ignoredDatabaseUrl, ...env } = process.env;
if (ignoredDatabaseUrl) console.log('DATABASE_URL is ignored: the demo runs on its own embedded database.');
const username = process.env.ADMIN_USERNAME || 'admin';
const password = process.env.ADMIN_PASSWORD || 'demo-password';
try {
  const config = loadConfig({
    ...env,
    DATA_DIR: process.env.DEMO_DATA_DIR || './data-demo',
    ADMIN_USERNAME: username,
    ADMIN_PASSWORD: password,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  });
  await startServer(config, {
    async beforeListen(app, database) {
      const started = performance.now();
      const result = await seedProgramme(app, database.db, await adminToken(app, database.db), {
        ...defaultSeedOptions,
        log: (line) => console.log(`  ${line}`),
      });
      if (result.seeded)
        console.log(`Demo data seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    },
    banner: `\n  Loyalty Admin demo: http://${process.env.HOST || '127.0.0.1'}:${process.env.PORT || 3000}\n  Sign in as ${username} / ${password}\n\n`,
  });
} catch (error) {
  exitOnStartProblem(error);
}
