import { type Kysely, sql } from 'kysely';

/**
 * Rulesets can be retired (issue 15.3): a retired ruleset is never in force again, and stays for history
 * and for the receipts that name it. Versions are bounded to positive 32-bit integers from now on; the
 * CHECK is NOT VALID so a database that already holds an out-of-range version still migrates (retiring
 * that ruleset is the way out of it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table rulesets add column retired_at timestamptz, add column retired_by text;
    alter table rulesets add constraint rulesets_version_range
      check (version between 1 and 2147483647) not valid;
  `.execute(db);
}
