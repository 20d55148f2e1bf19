import { type Kysely, sql } from 'kysely';

/**
 * Idempotency-Key of the admin API's manual accrual (issue 15.7): per user, the hash of the request that
 * first used the key and the answer it got, so a retry with the same key and body gets that answer again
 * and nothing happens twice. The primary key is what makes two concurrent requests with one key queue:
 * the second waits on the first's claim and then reads its answer. Kept as long as the user exists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      user_id uuid not null references users (id) on delete cascade,
      key text not null,
      request_hash text not null,
      -- Null only inside the transaction that claimed the key; it commits them with its answer.
      status_code integer,
      response jsonb,
      created_at timestamptz not null default now(),
      primary key (user_id, key)
    );
  `.execute(db);
}
