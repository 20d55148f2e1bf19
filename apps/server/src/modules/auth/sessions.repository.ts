import { isUuid } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';

/**
 * Expired revocations a sign-out deletes at most. Each sign-out adds one row and deletes up to this many that
 * have expired (by revoked_sessions_expires_at_idx), so the table holds about the sign-outs of the last session
 * lifetime or two, and no sign-out pays for a long backlog at once.
 */
const PRUNE_BATCH = 100;

/**
 * The user a session token names, and whether that session was signed out, in one statement: the user by its
 * primary key, the revocation by revoked_sessions' (every request pays one round trip, as before the revocation).
 * A token without a jti (issued before sign-outs were recorded) is never revoked.
 */
export async function findSessionUser(db: Executor, userId: string, jti: string | undefined) {
  // A malformed id cannot match; checking here avoids a cast error from PostgreSQL.
  if (!isUuid(userId)) return undefined;
  return db
    .selectFrom('users')
    .select(['id', 'username', 'role'])
    .select((eb) =>
      jti === undefined
        ? sql<boolean>`false`.as('revoked')
        : eb
            .exists(eb.selectFrom('revoked_sessions').select(sql`1`.as('one')).where('jti', '=', jti))
            .as('revoked'),
    )
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Refuses the session from now until its token expires; then deletes a batch of revocations past their expiry. */
export async function revokeSession(trx: Tx, jti: string, expiresAt: Date): Promise<void> {
  await trx
    .insertInto('revoked_sessions')
    .values({ jti, expires_at: expiresAt })
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
  await trx
    .deleteFrom('revoked_sessions')
    .where(
      'jti',
      'in',
      trx
        .selectFrom('revoked_sessions')
        .select('jti')
        .where('expires_at', '<', sql<Date>`now()`)
        .limit(PRUNE_BATCH),
    )
    .execute();
}
