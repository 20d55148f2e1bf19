import { type Kysely, sql } from 'kysely';

/**
 * Events and webhooks (PROGRAMME-API §5, issue 12).
 *
 * `events` is the outbox: a row is written by the transaction that makes the change, so it exists exactly
 * when the change committed. `xid` is that transaction's id: ids are drawn at insert, not at commit, so the
 * feed orders by (xid, id) and serves only transactions older than every one still running (see
 * events.repository.ts), which no later commit can precede.
 *
 * `webhook_deliveries`: one row per event and endpoint subscribed when the event was written (same
 * transaction). A worker claims a due row (`FOR UPDATE SKIP LOCKED`) by pushing `next_attempt_at` past the
 * attempt's time limit (`claimed_until`), so a server that dies mid-delivery leaves it due again for another.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table events (
      id bigint generated always as identity primary key,
      xid xid8 not null default pg_current_xact_id(),
      type text not null,
      data jsonb not null,
      created_at timestamptz not null default now()
    );
    create index events_feed_idx on events (xid, id);
    create index events_created_at_idx on events (created_at);

    create table webhook_endpoints (
      id uuid primary key,
      url text not null,
      description text,
      event_types text[] not null,
      status text not null check (status in ('active', 'disabled')),
      -- AES-256-GCM under a key derived from POS_KEY_SECRET (never in the database), like POS keys.
      secret_cipher text not null,
      created_at timestamptz not null default now()
    );

    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      event_id bigint not null references events (id) on delete cascade,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz default now(),
      claimed_until timestamptz,
      last_attempt_at timestamptz,
      response_status integer,
      last_error text,
      created_at timestamptz not null default now()
    );
    create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
    create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc, id desc);
    create index webhook_deliveries_event_idx on webhook_deliveries (event_id);
  `.execute(db);
}
