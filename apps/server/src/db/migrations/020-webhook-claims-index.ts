import { type Kysely, sql } from 'kysely';

/**
 * The delivery workers' claim counts each endpoint's attempts in flight (deliveries claimed and not yet
 * recorded) to keep at most a few per endpoint. Without an index for them it read every pending delivery,
 * and while receivers lag behind a busy POS the pending ones are a backlog of thousands: each claim, about
 * one per delivered event, grew with the backlog (issue 12's bar, issue 13). This partial index holds only
 * the deliveries in flight (a recorded attempt clears `claimed_until`), a handful per server.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index webhook_deliveries_claimed_idx on webhook_deliveries (endpoint_id)
      where status = 'pending' and claimed_until is not null
  `.execute(db);
}
