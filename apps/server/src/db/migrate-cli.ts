import { loadConfig } from '../config';
import { openDatabase } from './connection';
import { migrateToLatest } from './migrate';

/** `npm run migrate`: the same migrations the server runs on start, for deploy pipelines. */
const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const applied = await migrateToLatest(handle.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await handle.close();
}
