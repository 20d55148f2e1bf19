import { type Kysely, sql } from 'kysely';

/**
 * Webhook deliveries without a row per event in the writing transaction (issue 12's bar: one endpoint may
 * cost a POS accrual at most 10%). Migration 014 queued one `webhook_deliveries` row per subscribed
 * endpoint inside each write, then updated it twice (claim, outcome), every update rewriting its indexes.
 *
 * Now each endpoint reads the outbox as a stream, in the feed's order (xid, id): `stream_xid`/`stream_id`
 * is how far its events have been handed over (delivered or queued as rows). A worker leases the stream
 * (`stream_lease` until `stream_lease_until`, `stream_slots` attempts at once), sends a batch, and inserts
 * one row per event with its outcome while moving the position, in one statement and only if the lease is
 * still its own. A failed attempt's row is pending and retried as before. A new endpoint starts at its
 * creating transaction, as does one enabled again (what happened while it was disabled is not sent).
 *
 * One delivery per event and endpoint is now a constraint (replacing the plain event index), so a stream
 * read twice after a lost lease can never queue the same event twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhook_endpoints
      add column stream_xid xid8 not null default pg_current_xact_id(),
      add column stream_id bigint not null default 0,
      add column stream_lease uuid,
      add column stream_lease_until timestamptz,
      add column stream_slots integer not null default 0;
    drop index webhook_deliveries_event_idx;
    create unique index webhook_deliveries_event_endpoint_key on webhook_deliveries (event_id, endpoint_id);
  `.execute(db);
}
