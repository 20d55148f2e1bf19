import { type Kysely, sql } from 'kysely';

/**
 * Text settings beside the numeric ones: `programme.currency` (ISO 4217 code) lives in `text_value`.
 * A row uses one of the two columns; an absent currency row reads as the default (EUR).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table settings add column text_value text`.execute(db);
}
