import { type Kysely, sql } from 'kysely';

/**
 * Earning rules v2 (PROGRAMME-API §3). A ruleset keeps its base `percent`; `earning_rules` holds the rest of
 * its config as the contract validated it ({minSpend, maxPointsPerReceipt, maxPointsPerCardPerDay, rules}),
 * null for a ruleset that has none. Rulesets are immutable, so the accrual reads it and never a copy.
 *
 * Each receipt line records which rule it earned by (`rule`: a rule's name, 'base', 'excluded', 'minSpend'
 * or 'cap'), so a cashier can say why and a return knows what the line earned. Both columns are nullable
 * without a default: adding them rewrites no table (receipt_items is the biggest one). Lines booked before
 * this migration have no `rule`; the receipt read names them from the only two outcomes rules v1 had.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table rulesets add column earning_rules jsonb;
    alter table receipt_items add column rule text;
  `.execute(db);
}
