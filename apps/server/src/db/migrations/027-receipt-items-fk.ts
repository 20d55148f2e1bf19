import { type Kysely, sql } from 'kysely';

/**
 * A receipt's lines referenced their receipt row; they now reference the accrual operation, the key the
 * receipt itself hangs from (`receipts.accrual_id → operations.id`). The ledger writes the operation, the
 * receipt and its lines in one statement, so the lines still cannot outlive or precede their accrual.
 *
 * Why: the check of the old key took a row lock on the receipt inserted by the same statement, once per
 * line, and under concurrent accruals those five checks cost more PostgreSQL time than any other part of an
 * accrual: 1.4 ms of 4.3 (pg_stat_statements over `npm run bench:pos`, 2 cores). The same check against
 * the operation row is not measurable there; accruals went from 246–286 to 348–381 per second in the same
 * benchmark (BENCHMARKS.md, issue 13).
 *
 * Added NOT VALID, then validated: the validation scans the lines without blocking the accruals writing
 * new ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table receipt_items drop constraint receipt_items_accrual_id_fkey;
    alter table receipt_items add constraint receipt_items_accrual_id_fkey
      foreign key (accrual_id) references operations (id) not valid;
  `.execute(db);
  await sql`alter table receipt_items validate constraint receipt_items_accrual_id_fkey`.execute(db);
}
