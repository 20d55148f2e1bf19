import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { searchPrefixes } from '../../db/migrations/002-loyalty-core';
import { inTransaction } from '../../db/transaction';

/**
 * Recomputes the exact row counters (migration 002) from the tables, e.g. after a bulk load that ran with
 * triggers off. The tables are locked against writes meanwhile, so the counts match the rows exactly.
 */
export async function rebuildRowCounts(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    await sql`lock table operations, cards, accounts in share mode`.execute(trx);
    await sql`delete from operation_counts`.execute(trx);
    await sql`delete from card_counts`.execute(trx);
    await sql`delete from account_counts`.execute(trx);
    await sql`delete from operation_search_counts`.execute(trx);
    await sql`delete from account_search_counts`.execute(trx);
    await sql`
      insert into operation_counts (type, status, shard, n)
        select type, status, 0, count(*) from operations group by type, status;
    `.execute(trx);
    await sql`
      insert into card_counts (status, shard, n) select status, 0, count(*) from cards group by status;
    `.execute(trx);
    await sql`insert into account_counts (shard, n) select 0, count(*) from accounts`.execute(trx);
    // The same key derivation as the triggers of migration 002, so a rebuild equals what the writes kept.
    const prefixes = searchPrefixes(
      '(select type, status, card_number, operation_id, 1 as n from operations)',
    );
    await sql`
      insert into operation_search_counts (ch, kind, type, status, shard, n)
        select ch, kind, type, status, 0, sum(n) from (${sql.raw(prefixes)}) s
        group by ch, kind, type, status;
    `.execute(trx);
    await sql`
      insert into account_search_counts (gram, shard, n)
        select g.gram, 0, count(*) from accounts
        cross join lateral loyalty_core_client_id_grams(client_id) g (gram)
        group by g.gram;
    `.execute(trx);
  });
}
