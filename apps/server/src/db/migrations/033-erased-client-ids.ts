import { type Kysely, sql } from 'kysely';

/**
 * Client IDs of erased members, as keys only (PROGRAMME-API §4): an erasure renames the account, so re-running
 * the members file it came from (a retried migration, a nightly sync) created the member again under their
 * client ID, with their opening points a second time beside the erased account's. A member import refuses such
 * a row instead (`ACCOUNT_EXISTS`). The key is a SHA-256 of the lower-cased ID, compared as the ID is (client IDs
 * are unique without case); the ID itself is not kept. `erased_client_key` is its one definition, used by the
 * erasure and by the import.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function erased_client_key(client_id text) returns text
    language sql immutable strict parallel safe
    as $$ select encode(sha256(convert_to('erased-client:' || lower(client_id), 'UTF8')), 'hex') $$`.execute(
    db,
  );
  await sql`
    create table erased_client_ids (
      key text primary key,
      erased_at timestamptz not null default now()
    )`.execute(db);
}
