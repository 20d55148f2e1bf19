import pg from 'pg';
import { isProcessRunning } from '../src/lib/process-running';

/**
 * Leftovers of killed test runs on a PostgreSQL server: the API tier's databases and templates
 * (`loyalty_test_*`, `loyalty_tpl_*`) and the browser tier's (`loyalty_e2e_*`). Imports nothing but pg, so the
 * e2e harness shares it.
 */

/** Runs statements on the server's maintenance connection (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function withAdminClient<T>(base: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// Databases named before the pid was part of the name carry no owner: they count as leftovers only when
// their folder has not changed for this long (no run keeps a test database that long).
const LEGACY_MIN_AGE_MINUTES = 60;

/**
 * Drops test databases and templates that killed runs left behind. Only ones whose run is gone (or, for old
 * names, untouched for an hour) and with nobody connected: the drop is not forced, so a database somebody
 * is using makes it fail and it is skipped. Returns the names dropped.
 */
export async function dropLeftoverDatabases(base: string): Promise<string[]> {
  return withAdminClient(base, async (client) => {
    const { rows } = await client.query<{ datname: string; oid: number }>(
      `select datname, oid::int as oid from pg_database
       where datname like 'loyalty\\_test\\_%' or datname like 'loyalty\\_tpl\\_%'
         or datname like 'loyalty\\_e2e\\_%'`,
    );
    const dropped: string[] = [];
    for (const { datname, oid } of rows) {
      const owned = /^loyalty_(?:test|tpl|e2e)_(\d+)_[0-9a-f]+$/.exec(datname);
      if (owned) {
        if (isProcessRunning(Number(owned[1]))) continue;
      } else if (!(await untouchedFor(client, oid, LEGACY_MIN_AGE_MINUTES))) {
        continue;
      }
      try {
        await client.query(`drop database if exists "${datname}"`);
        dropped.push(datname);
      } catch {
        // In use (or being created by its run right now): not a leftover.
      }
    }
    return dropped;
  });
}

async function untouchedFor(client: pg.Client, oid: number, minutes: number): Promise<boolean> {
  try {
    const { rows } = await client.query<{ old: boolean }>(
      `select (pg_stat_file('base/' || $1::text)).modification < now() - make_interval(mins => $2) as old`,
      [oid, minutes],
    );
    return rows[0]?.old === true;
  } catch {
    // pg_stat_file needs superuser (or pg_read_server_files): without it, leave old names alone.
    return false;
  }
}
