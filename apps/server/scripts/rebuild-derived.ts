import { loadDatabaseConfig } from '../src/config';
import { rebuildDerivedTables } from '../src/db/derived';
import { assertMigrated, exitOnStartProblem, openScriptDatabase } from '../src/start-problems';

/**
 * `npm run rebuild-derived`: recompute counters and rollups from the raw tables of the configured database.
 * A recompute only: a database with pending migrations (or one a newer version migrated) is refused, never
 * migrated (`npm run migrate` does that, README "Upgrades"), and a DATA_DIR holding no database is not made
 * one. Exit code 1 when it could not run.
 */
try {
  const handle = await openScriptDatabase(loadDatabaseConfig());
  try {
    await assertMigrated(handle.db, { refuseUnknown: true });
    await rebuildDerivedTables(handle.db, (line) => console.log(line));
  } finally {
    await handle.close();
  }
} catch (error) {
  exitOnStartProblem(error);
}
