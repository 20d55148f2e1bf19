import { type Kysely, sql } from 'kysely';

/**
 * The programme: settings, rulesets with excluded SKUs, accounts with their cards, POS keys and the
 * operations ledger.
 *
 * - Points are numeric(…, 2), never floats. `accounts.balance` / `held_balance` are caches of the
 *   ledger, changed only in the transaction that writes the operation that justifies them; the CHECKs
 *   make "available never negative" a database guarantee, not only a code path.
 * - Text searched by prefix (card numbers, operation ids) uses COLLATE "C" so a plain btree index serves
 *   `LIKE 'abc%'`; text searched anywhere (client ids, SKU text) gets a trigram index.
 * - Exact list totals without counting millions of rows: `*_counts` hold row counts per filter value,
 *   kept by statement-level triggers in the writing transaction (so every snapshot sees counts that match
 *   its rows). Each writer adds to the shard of its backend, so concurrent writers do not queue on one hot
 *   row; a reader sums the shards. `rebuildDerivedTables` recomputes them after a bulk load.
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
    create index excluded_skus_search_trgm_idx on excluded_skus using gin (
      (sku || ' ' || coalesce(description, '') || ' ' || coalesce(category, '')) gin_trgm_ops
    );

    create table accounts (
      id uuid primary key default gen_random_uuid(),
      client_id text not null,
      balance numeric(14, 2) not null default 0 check (balance >= 0),
      held_balance numeric(14, 2) not null default 0 check (held_balance >= 0),
      created_at timestamptz not null default now(),
      constraint accounts_available_not_negative check (held_balance <= balance)
    );
    create unique index accounts_client_id_key on accounts (client_id);
    -- Client lookup matches a client ID in any case, so "ABC" and "abc" must not be two clients.
    create unique index accounts_client_id_lower_key on accounts (lower(client_id));
    create index accounts_client_id_trgm_idx on accounts using gin (client_id gin_trgm_ops);
    create index accounts_created_at_idx on accounts (created_at desc, id desc);
    create index accounts_balance_idx on accounts (balance, id);

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
    create index cards_account_idx on cards (account_id, created_at desc, id desc);
    create index cards_created_at_idx on cards (created_at desc, id desc);
    create index cards_status_created_at_idx on cards (status, created_at desc, id desc);
    -- A number-prefix search within one status counts over a narrow range of this index.
    create index cards_status_number_idx on cards (status, number);

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

    create table operation_counts (
      type text not null,
      status text not null,
      shard smallint not null,
      n bigint not null,
      primary key (type, status, shard)
    );
    create table card_counts (
      status text not null,
      shard smallint not null,
      n bigint not null,
      primary key (status, shard)
    );
    create table account_counts (
      shard smallint not null primary key,
      n bigint not null
    );
    -- Totals of the searches no index can count fast: an operations search of one to three characters
    -- (operations whose card number starts with it: c; whose operation id does: o; both: b) and an
    -- accounts search of one or two characters (client IDs containing that text in any case; trigrams
    -- need three).
    create table operation_search_counts (
      ch text not null,
      kind char(1) not null check (kind in ('c', 'o', 'b')),
      type text not null,
      status text not null,
      shard smallint not null,
      n bigint not null,
      primary key (ch, kind, type, status, shard)
    );
    create table account_search_counts (
      gram text not null,
      shard smallint not null,
      n bigint not null,
      primary key (gram, shard)
    );
    create function loyalty_core_client_id_grams(client_id text) returns setof text
      language sql immutable parallel safe as $$
        select distinct substr(lower(client_id), i, len)
        from generate_series(1, length(client_id)) i, (values (1), (2)) l (len)
        where i + len - 1 <= length(client_id)
      $$;
  `.execute(db);
  await createCounterTriggers(db);
}

/** Delta rows of one trigger event: +1 per new row, -1 per old row. */
function deltas(event: 'INSERT' | 'DELETE' | 'UPDATE', columns: string): string {
  const added = `select ${columns}, 1 as n from new_rows`;
  const removed = `select ${columns}, -1 as n from old_rows`;
  if (event === 'INSERT') return added;
  if (event === 'DELETE') return removed;
  return `${added} union all ${removed}`;
}

/**
 * The (prefix, kind) keys of delta rows \`d\` (columns type, status, card_number, operation_id, n): every
 * prefix of one to three characters of the card number (c) and of the operation id (o), and the
 * prefixes they share (b), so "starts with" counts as c + o − b, exactly like the OR of the two LIKEs.
 */
function searchPrefixes(d: string): string {
  return `
    select left(card_number, len) as ch, 'c' as kind, type, status, n
    from ${d} d cross join (values (1), (2), (3)) l (len) where length(card_number) >= len
    union all
    select left(operation_id, len), 'o', type, status, n
    from ${d} d cross join (values (1), (2), (3)) l (len) where length(operation_id) >= len
    union all
    select left(card_number, len), 'b', type, status, n
    from ${d} d cross join (values (1), (2), (3)) l (len)
    where length(card_number) >= len and length(operation_id) >= len
      and left(card_number, len) = left(operation_id, len)`;
}

function operationCounts(event: 'INSERT' | 'DELETE' | 'UPDATE'): string {
  const d = `(${deltas(event, 'type, status, card_number, operation_id')})`;
  return `
    insert into operation_counts as c (type, status, shard, n)
      select type, status, loyalty_core_count_shard(), sum(n) from ${d} d
      group by type, status having sum(n) <> 0 order by type, status
      on conflict (type, status, shard) do update set n = c.n + excluded.n;
    insert into operation_search_counts as c (ch, kind, type, status, shard, n)
      select ch, kind, type, status, loyalty_core_count_shard(), sum(n) from (${searchPrefixes(d)}) s
      group by ch, kind, type, status having sum(n) <> 0 order by ch, kind, type, status
      on conflict (ch, kind, type, status, shard) do update set n = c.n + excluded.n;`;
}

function cardCounts(event: 'INSERT' | 'DELETE' | 'UPDATE'): string {
  return `
    insert into card_counts as c (status, shard, n)
      select status, loyalty_core_count_shard(), sum(n) from (${deltas(event, 'status')}) d
      group by status having sum(n) <> 0 order by status
      on conflict (status, shard) do update set n = c.n + excluded.n;`;
}

function accountCounts(event: 'INSERT' | 'DELETE'): string {
  const d = `(${deltas(event, 'client_id')})`;
  return `
    insert into account_counts as c (shard, n)
      select loyalty_core_count_shard(), sum(n) from ${d} d having count(*) > 0
      on conflict (shard) do update set n = c.n + excluded.n;
    insert into account_search_counts as c (gram, shard, n)
      select g.gram, loyalty_core_count_shard(), sum(d.n) from ${d} d
      cross join lateral loyalty_core_client_id_grams(d.client_id) g (gram)
      group by g.gram order by g.gram
      on conflict (gram, shard) do update set n = c.n + excluded.n;`;
}

/**
 * Statement-level triggers with transition tables: one upsert per counter table and statement, whatever
 * its row count. Keys are upserted in a fixed order so two writers never lock counter rows in opposite
 * orders. A plpgsql query naming a transition table its event lacks fails when planned, and each branch
 * is planned only when it runs: hence one branch per event.
 */
async function createCounterTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function loyalty_core_count_shard() returns smallint language sql volatile as
      $$ select (pg_backend_pid() % 16)::smallint $$;
  `.execute(db);
  const branches = (body: (event: 'INSERT' | 'DELETE' | 'UPDATE') => string) => `
    begin
      if tg_op = 'INSERT' then ${body('INSERT')}
      elsif tg_op = 'DELETE' then ${body('DELETE')}
      else ${body('UPDATE')}
      end if;
      return null;
    end`;
  for (const [table, body] of [
    ['operations', operationCounts],
    ['cards', cardCounts],
  ] as const) {
    const fn = `loyalty_core_count_${table}`;
    await sql`
      create function ${sql.raw(fn)}() returns trigger language plpgsql as ${sql.lit(branches(body))};
      create trigger ${sql.raw(`loyalty_core_${table}_count_ins`)} after insert on ${sql.raw(table)}
        referencing new table as new_rows for each statement execute function ${sql.raw(fn)}();
      create trigger ${sql.raw(`loyalty_core_${table}_count_upd`)} after update on ${sql.raw(table)}
        referencing old table as old_rows new table as new_rows
        for each statement execute function ${sql.raw(fn)}();
      create trigger ${sql.raw(`loyalty_core_${table}_count_del`)} after delete on ${sql.raw(table)}
        referencing old table as old_rows for each statement execute function ${sql.raw(fn)}();
    `.execute(db);
  }
  // Balance updates (every POS write) must not fire a statement trigger on accounts: inserts and deletes
  // move these counters, and a row trigger that fires only when a client ID changes moves the grams.
  const accounts = `
    begin
      if tg_op = 'INSERT' then ${accountCounts('INSERT')}
      else ${accountCounts('DELETE')}
      end if;
      return null;
    end`;
  await sql`
    create function loyalty_core_count_accounts() returns trigger language plpgsql as ${sql.lit(accounts)};
    create trigger loyalty_core_accounts_count_ins after insert on accounts
      referencing new table as new_rows for each statement execute function loyalty_core_count_accounts();
    create trigger loyalty_core_accounts_count_del after delete on accounts
      referencing old table as old_rows for each statement execute function loyalty_core_count_accounts();
    create function loyalty_core_count_client_id_change() returns trigger language plpgsql as $$
      begin
        insert into account_search_counts as c (gram, shard, n)
          select gram, loyalty_core_count_shard(), sum(n) from (
            select gram, 1 as n from loyalty_core_client_id_grams(new.client_id) gram
            union all
            select gram, -1 from loyalty_core_client_id_grams(old.client_id) gram
          ) d
          group by gram having sum(n) <> 0 order by gram
          on conflict (gram, shard) do update set n = c.n + excluded.n;
        return null;
      end $$;
    create trigger loyalty_core_accounts_count_client_id after update of client_id on accounts
      for each row when (old.client_id is distinct from new.client_id)
      execute function loyalty_core_count_client_id_change();
  `.execute(db);
}
