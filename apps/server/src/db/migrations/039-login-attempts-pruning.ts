import { type Kysely, sql } from 'kysely';

/**
 * Sign-in attempts are only ever read inside the throttle's window (LOGIN_WINDOW_SECONDS), but every attempt
 * was kept for good, successes too: a table that grew with each sign-in and, under a guessing attack, with each
 * guess. Each sign-in now deletes a batch of attempts older than the window (`pruneAttempts`); this index finds
 * them without reading the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index login_attempts_attempted_at_idx on login_attempts (attempted_at)`.execute(db);
}
