import { type Kysely, sql } from 'kysely';

/**
 * A sign-in attempt is counted under a SHA-256 of its username (lower-cased as the sign-in looks the user up)
 * instead of the text itself: what was typed as a username is often a password typed into the wrong field,
 * and `login_attempts` kept it in the clear, failures for ever. The throttle only compares attempts with
 * each other, which the hash does as well (`modules/auth/login-attempts.repository.ts` `attemptKey`: the
 * same input, 'login-attempt:' and the name, so the attempts already written keep counting).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table login_attempts add column username_key text`.execute(db);
  await sql`update login_attempts
    set username_key = encode(sha256(convert_to('login-attempt:' || lower(username), 'UTF8')), 'hex')`.execute(
    db,
  );
  await sql`alter table login_attempts alter column username_key set not null`.execute(db);
  await sql`drop index login_attempts_username_idx`.execute(db);
  await sql`alter table login_attempts drop column username`.execute(db);
  await sql`create index login_attempts_username_key_idx on login_attempts (username_key, attempted_at desc)`.execute(
    db,
  );
}
