import { type Kysely, sql } from 'kysely';

/**
 * Bulk credit files' Idempotency-Keys (PROGRAMME-API §4: "the same file again returns the first answer") are
 * the programme's, not a user's: under `idempotency_keys` (per user, deleted with the user) a second manager
 * posting the same file, or anyone after the first poster's account was deleted, credited every row again.
 * The keys already written move here with their answers (an import's answer is the one with `dryRun`; manual
 * accrual's stay per user); where two users had used one key, the first use keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table bulk_credit_keys (
      key text primary key,
      request_hash text not null,
      -- Null only inside the transaction that claimed the key; it commits them with its answer.
      status_code integer,
      response jsonb,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    insert into bulk_credit_keys (key, request_hash, status_code, response, created_at)
    select distinct on (key) key, request_hash, status_code, response, created_at
    from idempotency_keys where response ? 'dryRun'
    order by key, created_at, user_id`.execute(db);
  await sql`delete from idempotency_keys where response ? 'dryRun'`.execute(db);
}
