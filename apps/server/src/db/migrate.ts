import { sql } from 'kysely';
import type { Db } from './connection';
import { migrations } from './migrations';
import { isUndefinedTable } from './sql-errors';

/** Kysely's own table name and shape, so databases migrated before this runner existed carry on. */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Applies the pending migrations in one transaction and returns their names.
 *
 * Several servers may start together on one fresh database. Kysely's Migrator serialises them with an
 * advisory lock, which ARCHITECTURE.md's scale-out rules exclude, so this runner does it with a table
 * lock instead: the first server to take `LOCK TABLE kysely_migration IN EXCLUSIVE MODE` migrates, the
 * others wait for its commit and then find nothing pending. Plain reads of the table (`/readyz`) still
 * run meanwhile; EXCLUSIVE mode only conflicts with writers and other lockers.
 */
export async function migrateToLatest(db: Db, options: { skip?: readonly string[] } = {}): Promise<string[]> {
  await ensureMigrationTable(db);
  // `skip` leaves migrations out: a test or bench builds a database as it was before one of them landed.
  const names = Object.keys(migrations)
    .sort()
    .filter((name) => !options.skip?.includes(name));
  return db.transaction().execute(async (trx) => {
    await sql`lock table ${sql.table(MIGRATION_TABLE)} in exclusive mode`.execute(trx);
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(trx);
    const done = new Set(rows.map((r) => r.name));
    const unknown = [...done].filter((name) => !(name in migrations));
    if (unknown.length > 0) {
      // A newer server already migrated this database; running older code against it is unsafe.
      throw new Error(`Database has migrations this server does not know: ${unknown.join(', ')}`);
    }
    const applied: string[] = [];
    for (const name of names) {
      if (done.has(name)) continue;
      try {
        await migrations[name]!.up(trx);
      } catch (error) {
        throw new Error(`Migration ${name} failed: ${String(error)}`, { cause: error });
      }
      await sql`insert into ${sql.table(MIGRATION_TABLE)} (name, timestamp)
        values (${name}, ${new Date().toISOString()})`.execute(trx);
      applied.push(name);
    }
    return applied;
  });
}

/**
 * `create table if not exists` is not safe against itself in PostgreSQL: two sessions can both decide to
 * create and one fails on the catalogue's unique index. That loser only needs the table to exist.
 */
async function ensureMigrationTable(db: Db) {
  try {
    await sql`create table if not exists ${sql.table(MIGRATION_TABLE)} (
      name varchar(255) primary key,
      timestamp varchar(255) not null
    )`.execute(db);
  } catch (error) {
    const { rows } = await sql<{ found: string | null }>`
      select to_regclass(${MIGRATION_TABLE})::text as found`.execute(db);
    if (!rows[0]?.found) throw error;
  }
}

/**
 * What `/readyz` and `verify-ledger` ask, from one read of the table: this server's migrations the database has not run
 * (`pending`), and the ones recorded there that this server does not have (`unknown`: a newer version
 * migrated it, and the server's queries may miss a column it dropped — an older server's sign-in answered
 * 500 — so `/readyz` takes such a server out of the balancer). Read only.
 */
export async function migrationState(db: Db): Promise<{ pending: string[]; unknown: string[] }> {
  const done = new Set(await recordedMigrations(db));
  return {
    pending: Object.keys(migrations)
      .sort()
      .filter((name) => !done.has(name)),
    unknown: [...done].filter((name) => !(name in migrations)).sort(),
  };
}

/** The names the table records; none on a database never migrated (no table yet: `verify-ledger` says so). */
async function recordedMigrations(db: Db): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
    return rows.map((r) => r.name);
  } catch (error) {
    if (isUndefinedTable(error)) return [];
    throw error;
  }
}
