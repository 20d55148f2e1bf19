import { type Kysely, sql } from 'kysely';

/**
 * Sessions ended by a sign-out (`POST /auth/api/v1/logout`): a session token is a signed JWT the server keeps
 * no copy of, so before this a token copied before its user signed out kept working until it expired, up to
 * SESSION_TTL_SECONDS later. The token's id (`jti`) is kept here until the token's own expiry (and the clock
 * tolerance after it, while it is still accepted), after which the
 * token is refused anyway and the row only takes room: a sign-out deletes such rows as it goes
 * (`modules/auth/sessions.repository.ts`), by the `expires_at` index, so the table holds about the sign-outs of
 * one session lifetime. Every authenticated request looks its token up by the primary key, in the same
 * statement that loads its user (`plugins/auth.ts`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table revoked_sessions (
      jti uuid primary key,
      expires_at timestamptz not null
    );
    create index revoked_sessions_expires_at_idx on revoked_sessions (expires_at);
  `.execute(db);
}
