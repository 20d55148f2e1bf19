import { loadDatabaseConfig } from '../src/config';
import { rebuildDerivedTables } from '../src/db/derived';
import { migrateToLatest } from '../src/db/migrate';
import { exitOnStartProblem, openScriptDatabase } from '../src/start-problems';

/** `npm run rebuild-derived`: recompute counters and rollups from the raw tables of the configured database. */
try {
  const handle = await openScriptDatabase(loadDatabaseConfig());
  try {
    await migrateToLatest(handle.db);
    await rebuildDerivedTables(handle.db, (line) => console.log(line));
  } finally {
    await handle.close();
  }
} catch (error) {
  exitOnStartProblem(error);
}
