import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';

/**
 * Recomputes the exact row counters (db/DERIVED.md) from the tables, e.g. after a bulk load that ran with
 * triggers off. The tables are locked against writes meanwhile, so the counts match the rows exactly. The
 * search keys come from the same SQL functions as the triggers' (`derived_search_prefixes`,
 * `derived_client_id_grams`), so a rebuild equals what the writes kept.
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
    await sql`
      insert into operation_search_counts (ch, kind, type, status, shard, n)
        select p.ch, p.kind, o.type, o.status, 0, count(*) from operations o
        cross join lateral derived_search_prefixes(o.card_number, o.operation_id) p
        group by 1, 2, 3, 4;
    `.execute(trx);
    await sql`
      insert into account_search_counts (gram, shard, n)
        select g.gram, 0, count(*) from accounts
        cross join lateral derived_client_id_grams(client_id) g (gram)
        group by g.gram;
    `.execute(trx);
  });
}
