import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';

/**
 * What an attempt is kept under: a SHA-256 of its username, never the text, which is often a password typed
 * into the wrong field (migration 031). Lower-cased first as the sign-in looks the user up (JavaScript's
 * rules, not PostgreSQL's lower(), which under the C locale keeps every non-ASCII letter): the Kelvin sign K,
 * which signs in as k, then counts against the user like the k it stands for.
 */
export const attemptKey = (username: string) =>
  createHash('sha256').update(`login-attempt:${username.toLowerCase()}`).digest('hex');

export async function recordAttempt(trx: Tx, username: string, address: string, succeeded: boolean) {
  await trx
    .insertInto('login_attempts')
    .values({ username_key: attemptKey(username), address, succeeded })
    .execute();
}

/**
 * Writes a sign-in attempt as a failure before it is checked, committed at once (so every concurrent
 * attempt counts it); a success clears it with the username's other failures. Answers its id.
 */
export async function claimAttempt(db: Db, username: string, address: string): Promise<string> {
  const row = await db
    .insertInto('login_attempts')
    .values({ username_key: attemptKey(username), address, succeeded: false })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Attempts older than the window deleted at most per sign-in: no sign-in pays for a long backlog at once. */
const PRUNE_BATCH = 100;

/**
 * Deletes a batch of attempts older than the throttle's window, which nothing reads again (`recentFailures`
 * counts inside it): each sign-in adds one and takes up to `PRUNE_BATCH` old ones away, so the table holds
 * about one window of attempts instead of every sign-in ever made.
 */
export async function pruneAttempts(db: Db, windowSeconds: number): Promise<void> {
  await db
    .deleteFrom('login_attempts')
    .where(
      'id',
      'in',
      db
        .selectFrom('login_attempts')
        .select('id')
        .where('attempted_at', '<', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
        .limit(PRUNE_BATCH),
    )
    .execute();
}

/** An attempt refused by the limits before any password was checked is not a failure: it goes. */
export async function dropAttempt(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('id', '=', id).execute();
}

/**
 * Failed attempts in the window: for the username from any address (what slows it down), for the
 * username from this address (what blocks that pair) and from this address for any username. Counted in
 * the database so every server agrees.
 */
export async function recentFailures(db: Db, username: string, address: string, windowSeconds: number) {
  const since = sql<Date>`now() - make_interval(secs => ${windowSeconds})`;
  const key = attemptKey(username);
  const row = await db
    .selectFrom('login_attempts')
    .select([
      sql<number>`count(*) filter (where username_key = ${key})`.as('byUsername'),
      sql<number>`count(*) filter (where username_key = ${key} and address = ${address})`.as('byPair'),
      sql<number>`count(*) filter (where address = ${address})`.as('byAddress'),
    ])
    .where('succeeded', '=', false)
    .where('attempted_at', '>', since)
    .where((eb) => eb.or([eb('username_key', '=', key), eb('address', '=', address)]))
    .executeTakeFirstOrThrow();
  return { byUsername: Number(row.byUsername), byPair: Number(row.byPair), byAddress: Number(row.byAddress) };
}

/**
 * Seconds until a blocked (username, address) may try again: until enough of its failures have left the
 * window that one more attempt stays within each limit it is over, i.e. until the `limit`-th newest failure
 * of that kind is older than the window. Read after the refused attempt was dropped, so it is not counted.
 */
export async function secondsUntilAllowed(
  db: Db,
  username: string,
  address: string,
  windowSeconds: number,
  limits: { byPair: number | null; byAddress: number | null },
): Promise<number> {
  const key = attemptKey(username);
  const freedAt = (limit: number, pair: boolean) =>
    db
      .selectFrom('login_attempts')
      .select(
        sql<number>`extract(epoch from attempted_at + make_interval(secs => ${windowSeconds}) - now())`.as(
          's',
        ),
      )
      .where('succeeded', '=', false)
      .where('address', '=', address)
      .$if(pair, (q) => q.where('username_key', '=', key))
      .orderBy('attempted_at', 'desc')
      .offset(limit - 1)
      .limit(1)
      .executeTakeFirst();
  const waits = await Promise.all([
    limits.byPair === null ? undefined : freedAt(limits.byPair, true),
    limits.byAddress === null ? undefined : freedAt(limits.byAddress, false),
  ]);
  const longest = Math.max(0, ...waits.map((row) => Number(row?.s ?? 0)));
  // At least a second: a client told 0 would try again at once, into the same refusal.
  return Math.min(windowSeconds, Math.max(1, Math.ceil(longest)));
}

/** A successful sign-in clears the username's failures, so a user who finally types it right is not locked out. */
export async function clearFailures(trx: Tx, username: string): Promise<number> {
  const result = await trx
    .deleteFrom('login_attempts')
    .where('username_key', '=', attemptKey(username))
    .where('succeeded', '=', false)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
