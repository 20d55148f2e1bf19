import { type Kysely, sql } from 'kysely';

/**
 * The programme: settings, rulesets with excluded SKUs, accounts with their cards, POS keys and the
 * operations ledger.
 *
 * - Points are numeric(…, 2), never floats. `accounts.balance` / `held_balance` are caches of the
 *   ledger, changed only in the transaction that writes the operation that justifies them; the CHECKs
 *   make "available never negative" a database guarantee, not only a code path.
 * - Text searched by prefix (card numbers, operation ids) uses COLLATE "C" so a plain btree index serves
 *   `LIKE 'abc%'`; text searched anywhere (client ids, names) gets a trigram index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table settings (
      key text primary key,
      value integer,
      updated_at timestamptz not null default now()
    );

    create table rulesets (
      id uuid primary key default gen_random_uuid(),
      version bigint not null unique check (version > 0),
      percent numeric(5, 2) not null check (percent between 0 and 100),
      active_from timestamptz,
      created_by text not null,
      created_at timestamptz not null default now()
    );
    create index rulesets_active_from_idx on rulesets (active_from, version desc);

    create table excluded_skus (
      ruleset_id uuid not null references rulesets (id),
      sku text not null,
      description text,
      category text,
      created_at timestamptz not null default now(),
      primary key (ruleset_id, sku)
    );
    create index excluded_skus_category_idx on excluded_skus (ruleset_id, category, sku);

    create table accounts (
      id uuid primary key default gen_random_uuid(),
      client_id text not null,
      balance numeric(14, 2) not null default 0 check (balance >= 0),
      held_balance numeric(14, 2) not null default 0 check (held_balance >= 0),
      created_at timestamptz not null default now(),
      constraint accounts_available_not_negative check (held_balance <= balance)
    );
    create unique index accounts_client_id_key on accounts (client_id);
    create index accounts_client_id_trgm_idx on accounts using gin (client_id gin_trgm_ops);
    create index accounts_created_at_idx on accounts (created_at desc, id desc);

    create table cards (
      id uuid primary key default gen_random_uuid(),
      number text collate "C" not null check (number ~ '^[0-9]{16}$'),
      account_id uuid not null references accounts (id),
      status text not null check (status in ('active', 'blocked', 'pending')),
      issued_at timestamptz,
      created_at timestamptz not null default now(),
      blocked_at timestamptz,
      blocked_reason text,
      replaced_by uuid references cards (id)
    );
    create unique index cards_number_key on cards (number);
    create index cards_account_idx on cards (account_id, created_at desc);
    create index cards_created_at_idx on cards (created_at desc, id desc);
    create index cards_status_created_at_idx on cards (status, created_at desc, id desc);

    create table pos_keys (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      address text,
      key_hash text not null,
      key_cipher text not null,
      status text not null check (status in ('active', 'inactive')),
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    );
    create unique index pos_keys_key_hash_key on pos_keys (key_hash);
    create index pos_keys_created_at_idx on pos_keys (created_at desc, id desc);

    create table operations (
      id uuid primary key default gen_random_uuid(),
      operation_id text collate "C",
      type text not null check (type in ('accrual', 'redemption', 'hold', 'adjustment')),
      status text not null check (status in ('completed', 'active', 'pending', 'failed', 'applied', 'voided')),
      points numeric(14, 2) not null,
      account_id uuid references accounts (id),
      card_id uuid references cards (id),
      card_number text collate "C",
      pos_id uuid references pos_keys (id),
      ruleset_version bigint,
      related_id uuid references operations (id),
      expires_at timestamptz,
      meta jsonb not null default '{}',
      created_by text,
      created_at timestamptz not null default now()
    );
    create unique index operations_operation_id_key on operations (operation_id);
    create index operations_created_at_idx on operations (created_at desc, id desc);
    create index operations_account_idx on operations (account_id, created_at desc, id desc);
    create index operations_card_number_idx on operations (card_number, created_at desc, id desc);
    create index operations_type_idx on operations (type, created_at desc, id desc);
    create index operations_status_idx on operations (status, created_at desc, id desc);
    create index operations_active_holds_idx on operations (expires_at) where type = 'hold' and status = 'active';
  `.execute(db);
}
