import { type Kysely, sql } from 'kysely';

/**
 * Points lots (PROGRAMME-API §1, issue 9): every credit creates a lot, every debit records the lots it
 * consumed, in the transaction that writes the operation (modules/ledger is their only writer).
 *
 * - `lots.remaining` is what is left of `points`; Σ remaining of an account = its balance (verify-ledger
 *   proves it, with remaining = points − Σ its consumptions). The CHECKs make "no lot below zero" and "no
 *   lot above its points" database guarantees.
 * - `credit_id` is the operation that created the lot (unique: a return finds its accrual's lot by it);
 *   null for the opening lot migration 016 gives each existing balance.
 * - `lot_consumptions`: one row per (debit, lot) with the points the debit took from it.
 * - The partial indexes serve what is read on every write: an account's lots with points left in the order
 *   a capture takes them, and, for the sweeper, the lots whose expiry has come.
 * - Operation type `expiry` (one per account and run); receipts keep an offline till's `purchased_at`
 *   (null: the purchase is the booking, `created_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table operations drop constraint operations_type_check;
    alter table operations add constraint operations_type_check
      check (type in ('accrual', 'redemption', 'hold', 'adjustment', 'expiry'));

    alter table receipts add column purchased_at timestamptz;

    create table lots (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts (id),
      credit_id uuid references operations (id),
      earned_at timestamptz not null,
      available_at timestamptz not null,
      expires_at timestamptz,
      points numeric(14, 2) not null check (points > 0),
      remaining numeric(14, 2) not null,
      created_at timestamptz not null default now(),
      constraint lots_remaining_in_range check (remaining >= 0 and remaining <= points),
      constraint lots_dates_in_order check (available_at >= earned_at and expires_at >= available_at)
    );
    create unique index lots_credit_key on lots (credit_id);
    create index lots_account_idx on lots (account_id, earned_at desc, id desc);
    create index lots_account_open_idx on lots (account_id, expires_at, earned_at, id) where remaining > 0;
    create index lots_due_idx on lots (expires_at) where remaining > 0 and expires_at is not null;

    create table lot_consumptions (
      operation_id uuid not null references operations (id),
      lot_id uuid not null references lots (id),
      points numeric(14, 2) not null check (points > 0),
      primary key (operation_id, lot_id)
    );
    create index lot_consumptions_lot_idx on lot_consumptions (lot_id);
  `.execute(db);
}
