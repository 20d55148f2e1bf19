import { type Kysely, sql } from 'kysely';

/**
 * The ruleset backtest (PROGRAMME-API §3) walks the receipts of a time range in (created_at, accrual_id)
 * order, a keyset batch at a time; without this index each batch would scan the receipts table. Nothing
 * else reads receipts by time, and a POS accrual writes one receipt row, so its cost per write is one
 * index entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index receipts_created_at_idx on receipts (created_at, accrual_id)`.execute(db);
}
