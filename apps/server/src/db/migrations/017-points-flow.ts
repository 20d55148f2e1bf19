import { type Kysely, sql } from 'kysely';
import { pinnedSql } from '../derived/pinned-sql';

/**
 * The points-flow rollup for the finance report (PROGRAMME-API §2, issue 9): a derived table per UTC day ×
 * POS × flow kind, kept exact by statement-level triggers on `operations` in the writing transaction
 * (db/DERIVED.md), and filled from the operations already written. The SQL lives in
 * `db/derived/017-points-flow.sql`, pinned by its SHA-256 as migration 010 pins its files: an edit makes
 * this migration refuse to run instead of silently changing what 017 did.
 */
const FILE = '017-points-flow.sql';
const SHA256 = 'a18b6fbac6259db9c0934861a2c01ed97d4b1ba8998f3b8447a60093d0855dde';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(pinnedSql(FILE, SHA256)).execute(db);
}
