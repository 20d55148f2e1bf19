import { type Kysely, sql } from 'kysely';

/**
 * Member import (PROGRAMME-API.md §4) issues a card number "as given", 8 to 19 digits, so that cards of
 * the retailer's previous system keep working; numbers this product draws stay 16 digits (card-number.ts).
 * Widening the check only: every existing number already matches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table cards drop constraint cards_number_check;
    alter table cards add constraint cards_number_check check (number ~ '^[0-9]{8,19}$');
  `.execute(db);
}
