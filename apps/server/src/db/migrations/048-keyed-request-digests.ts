import { type Kysely, sql } from 'kysely';

/**
 * What an erasure keeps held plain SHA-256 digests of what it erased: a bulk credit file's key (by default the
 * body's SHA-256), its request hash and its rows' fingerprint; a keyed manual accrual's request hash (account,
 * points, reason); an import's audit entry's `sha256` of the body. Each is tied to the erased account by the
 * importId or account id the erasure keeps, and an 8-digit client ID is 10^8 guesses (about 100 s) away.
 * They are now written keyed with the secret erased client IDs are keyed with (migration 041's secret prefix,
 * `erased_client_key_keyed`; member-data's `keyedDigest`), which the database never holds. Rows written before
 * are keyed as a server starts (member-data's `keyPlainDigests`): `keyed` says which are done. An import's
 * audit entry needs no column: `fileDigest` replaces `sha256` in it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bulk_credit_keys add column keyed boolean not null default false`.execute(db);
  await sql`alter table idempotency_keys add column keyed boolean not null default false`.execute(db);
}
