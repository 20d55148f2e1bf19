import { loadDatabaseConfig } from '../config';
import { exitOnStartProblem, openScriptDatabase } from '../start-problems';
import { migrateToLatest } from './migrate';

/**
 * `npm run migrate`: the same migrations the server runs on start, for deploy pipelines. A database it cannot
 * use is told in one line, as the server tells it (start-problems.ts); exit code 1. Like the server's first
 * start, it makes a new embedded database in a DATA_DIR that holds none.
 */
try {
  const handle = await openScriptDatabase(loadDatabaseConfig(), { create: true });
  try {
    const applied = await migrateToLatest(handle.db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await handle.close();
  }
} catch (error) {
  exitOnStartProblem(error);
}
