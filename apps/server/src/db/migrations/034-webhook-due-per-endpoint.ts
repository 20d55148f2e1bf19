import { type Kysely, sql } from 'kysely';

/**
 * An endpoint's due deliveries in due order, for the claim of each active endpoint's own due rows
 * (`claimDeliveries`): a claim that took the oldest due rows of all endpoints let a dead endpoint's retries
 * fill its window, and no other endpoint's retry, test event or Retry was claimed until they had all been
 * tried. Partial, like webhook_deliveries_due_idx: a delivery leaves it when it succeeds or fails for good.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index webhook_deliveries_endpoint_due_idx on webhook_deliveries (endpoint_id, next_attempt_at)
    where status = 'pending'`.execute(db);
}
