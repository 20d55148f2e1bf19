import { type Kysely, sql } from 'kysely';

/**
 * Bulk credit files' rows as a fingerprint (PROGRAMME-API §4): the default Idempotency-Key is the body's
 * SHA-256, so the same rows saved again by a spreadsheet (CRLF, a byte order mark, `7` as `7.00`, a trailing
 * line of commas) are another file under another key, and credited again. The fingerprint of a completed
 * import's parsed rows (modules/imports/accruals-stage.repository.ts `rowsFingerprint`) lets a dry run of
 * such a file name the import that already credited them. Null for the keys written before, whose rows are
 * gone, and for an import that credited nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bulk_credit_keys add column rows_fingerprint text`.execute(db);
  await sql`
    create index bulk_credit_keys_rows_fingerprint_idx on bulk_credit_keys (rows_fingerprint, created_at)
    where rows_fingerprint is not null`.execute(db);
}
