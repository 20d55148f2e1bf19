import { type Kysely, sql } from 'kysely';

/**
 * A Holds TTL of 0 minutes, which the settings took before the contract asked for at least 1: every hold then
 * lapsed as it was made (answered "active" to the till, never capturable), and the console's form, showing
 * the stored 0, refused every save of the card until someone changed a value nobody had asked about. A stored
 * 0 becomes unset, the POS default of 15 minutes, which is what a programme without a TTL gives its holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update settings set value = null, updated_at = now() where key = 'holds.ttl_minutes' and value = 0`.execute(
    db,
  );
}
