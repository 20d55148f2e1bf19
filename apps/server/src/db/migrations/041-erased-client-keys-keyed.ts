import { type Kysely, sql } from 'kysely';

/**
 * Erased client IDs were kept as an unsalted SHA-256 (migration 033): whoever held a dump could hash the phone
 * numbers or e-mail addresses they guessed and find an erased member among 20,000 candidates in milliseconds.
 * The key is now keyed with a secret derived from POS_KEY_SECRET (which never lives in the database): the hash
 * of that secret followed by the old key, so rows written before can be keyed without the IDs they came from
 * (`keyed` false until a server, which knows the secret, keys them as it starts: member-data's
 * `keyErasedClientIds`). PostgreSQL has no HMAC without pgcrypto; a secret prefix is enough here, where the
 * only attack is guessing IDs, which needs the secret either way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table erased_client_ids add column keyed boolean not null default false`.execute(db);
  await sql`
    create function erased_client_key_keyed(unkeyed text, secret text) returns text
    language sql immutable strict parallel safe
    as $$ select encode(sha256(convert_to(secret || ':' || unkeyed, 'UTF8')), 'hex') $$`.execute(db);
  await sql`
    create function erased_client_key(client_id text, secret text) returns text
    language sql immutable strict parallel safe
    as $$ select erased_client_key_keyed(erased_client_key(client_id), secret) $$`.execute(db);
}
