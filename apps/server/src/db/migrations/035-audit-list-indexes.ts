import { type Kysely, sql } from 'kysely';

/**
 * The Audit Logs list at a few million entries (every admin change and every sign-in writes one):
 * - its search matches the message or the username (`ilike '%…%'`); only the message had a trigram index, so
 *   the OR read the whole table for every search;
 * - sorted by user or by type, each page sorted the whole filtered table, and each batch of an export did so
 *   again; (username, id) and (target_type, id) are the list's order (`orderList`), so a page reads an index
 *   range and an export walks it (`list-stream.ts`).
 * Measured in BENCHMARKS.md "Audit Logs at 2M entries".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index audit_log_username_trgm_idx on audit_log using gin (username gin_trgm_ops);
    create index audit_log_username_order_idx on audit_log (username, id);
    create index audit_log_target_type_order_idx on audit_log (target_type, id);
  `.execute(db);
}
