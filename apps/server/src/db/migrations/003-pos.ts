import { type Kysely, sql } from 'kysely';

/**
 * POS API: idempotency records and receipts.
 *
 * - `pos_requests` is the operationId namespace (unique across all POS). A write inserts its row in the
 *   same statement or transaction as its effect, so a concurrent duplicate either waits and sees it or
 *   fails on the key; `response` is the body the first request got, replayed as is.
 * - Receipts hang off their accrual operation; each line remembers how much of it has been returned so
 *   several partial returns never take back more than the line earned (the CHECKs make that a database
 *   guarantee too).
 * - A hold has at most one completed redemption: a double capture is impossible, not merely avoided.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table pos_requests (
      operation_id text collate "C" primary key,
      pos_id uuid not null references pos_keys (id),
      request_hash text not null,
      status_code smallint not null,
      response jsonb not null,
      created_at timestamptz not null default now()
    );

    create table receipts (
      accrual_id uuid primary key references operations (id),
      receipt_id text not null,
      pos_id uuid not null references pos_keys (id),
      card_number text collate "C" not null,
      total_amount numeric(16, 2) not null check (total_amount >= 0),
      total_discount numeric(16, 2) not null check (total_discount >= 0),
      created_at timestamptz not null default now()
    );

    -- Keyed by (accrual, line): every accrual writes five-odd lines, and nothing looks a line up by id, so
    -- the id (shown with the receipt) needs no index of its own.
    create table receipt_items (
      accrual_id uuid not null references receipts (accrual_id),
      line_no integer not null,
      id uuid not null default gen_random_uuid(),
      sku text not null,
      category text,
      quantity numeric(12, 3) not null check (quantity > 0),
      price numeric(14, 2) not null check (price >= 0),
      discount numeric(14, 2) not null check (discount >= 0),
      line_total numeric(16, 2) not null check (line_total >= 0),
      bonus_points numeric(14, 2) not null check (bonus_points >= 0),
      returned_quantity numeric(12, 3) not null default 0
        check (returned_quantity >= 0 and returned_quantity <= quantity),
      returned_points numeric(14, 2) not null default 0
        check (returned_points >= 0 and returned_points <= bonus_points),
      primary key (accrual_id, line_no)
    );

    create unique index operations_one_redemption_per_hold on operations (related_id)
      where type = 'redemption' and status = 'completed';
  `.execute(db);
}
