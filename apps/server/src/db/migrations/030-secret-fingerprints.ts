import { type Kysely, sql } from 'kysely';

/**
 * Every server of one database must sign sessions with the same JWT_SECRET and hash and encrypt POS keys with
 * the same POS_KEY_SECRET. The secrets stay out of the database (lib/secrets.ts: a dump alone must not forge
 * sessions or open POS keys); what the first server to start records here is a fingerprint of each (SHA-256,
 * not reversible), so a server started with other secrets refuses to start (db/secret-fingerprints.ts)
 * instead of answering 401 to every till and session the others made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table secret_fingerprints (
      name text primary key,
      fingerprint text not null,
      recorded_at timestamptz not null default now()
    )
  `.execute(db);
}
