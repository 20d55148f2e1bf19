import { sql } from 'kysely';
import type { Tx } from './transaction';

/**
 * Serialises a rare, start-up-time decision ("is there any user yet?") across every server on the database
 * without an advisory lock (ARCHITECTURE.md "Scale-out"): SHARE ROW EXCLUSIVE conflicts with itself and with
 * writers, not with plain reads, and is released at commit.
 */
export async function lockUsersTableForBootstrap(trx: Tx): Promise<void> {
  await sql`lock table users in share row exclusive mode`.execute(trx);
}
