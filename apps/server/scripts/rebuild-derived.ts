import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/connection';
import { rebuildDerivedTables } from '../src/db/derived';
import { migrateToLatest } from '../src/db/migrate';

/** `npm run rebuild-derived`: recompute counters and rollups from the raw tables of the configured database. */
const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await migrateToLatest(handle.db);
  await rebuildDerivedTables(handle.db, (line) => console.log(line));
} finally {
  await handle.close();
}
