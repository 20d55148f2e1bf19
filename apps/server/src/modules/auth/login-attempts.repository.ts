import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';

export async function recordAttempt(trx: Tx, username: string, address: string, succeeded: boolean) {
  await trx.insertInto('login_attempts').values({ username, address, succeeded }).execute();
}

/**
 * Failed attempts in the window: for the username from any address (what slows it down), for the
 * username from this address (what blocks that pair) and from this address for any username. Counted in
 * the database so every server agrees.
 */
export async function recentFailures(db: Db, username: string, address: string, windowSeconds: number) {
  const since = sql<Date>`now() - make_interval(secs => ${windowSeconds})`;
  const name = username.toLowerCase();
  const row = await db
    .selectFrom('login_attempts')
    .select([
      sql<number>`count(*) filter (where lower(username) = ${name})`.as('byUsername'),
      sql<number>`count(*) filter (where lower(username) = ${name} and address = ${address})`.as('byPair'),
      sql<number>`count(*) filter (where address = ${address})`.as('byAddress'),
    ])
    .where('succeeded', '=', false)
    .where('attempted_at', '>', since)
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', name), eb('address', '=', address)]))
    .executeTakeFirstOrThrow();
  return { byUsername: Number(row.byUsername), byPair: Number(row.byPair), byAddress: Number(row.byAddress) };
}

/** A successful sign-in clears the username's failures, so a user who finally types it right is not locked out. */
export async function clearFailures(trx: Tx, username: string): Promise<number> {
  const result = await trx
    .deleteFrom('login_attempts')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('succeeded', '=', false)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
