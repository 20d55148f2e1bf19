import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';

export async function recordAttempt(trx: Tx, username: string, address: string, succeeded: boolean) {
  await trx.insertInto('login_attempts').values({ username, address, succeeded }).execute();
}

/** Failed attempts in the window, per username and per address, counted in the database so every server agrees. */
export async function recentFailures(db: Db, username: string, address: string, windowSeconds: number) {
  const since = sql<Date>`now() - make_interval(secs => ${windowSeconds})`;
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('login_attempts')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .where('succeeded', '=', false)
        .where('attempted_at', '>', since)
        .as('byUsername'),
      eb
        .selectFrom('login_attempts')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('address', '=', address)
        .where('succeeded', '=', false)
        .where('attempted_at', '>', since)
        .as('byAddress'),
    ])
    .executeTakeFirstOrThrow();
  return { byUsername: Number(row.byUsername), byAddress: Number(row.byAddress) };
}

/** A successful sign-in clears the username's failures, so a user who finally types it right is not locked out. */
export async function clearFailures(trx: Tx, username: string) {
  await trx
    .deleteFrom('login_attempts')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('succeeded', '=', false)
    .execute();
}
