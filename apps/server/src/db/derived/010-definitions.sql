-- Derived data, version 010: the definitions (db/DERIVED.md). The triggers (010-triggers.sql), the
-- rebuild (db/derived.ts) and the analytics reference (analytics-reference.repository.ts) all call these,
-- so each rule is written once. Migration 010 runs this file as it is now; a later change adds new files
-- and a new migration (`create or replace`), it never edits this one.

-- The counter row a write adds to: one shard per backend, so concurrent writers update different rows
-- and never wait for each other's commit on a hot row. Only the sum over shards means anything.
create or replace function derived_shard() returns smallint
  language sql volatile parallel restricted
  as $$ select (pg_backend_pid() % 64)::smallint $$;

-- An operation is activity (counted in the analytics' operations, volume and active accounts) when it is
-- completed. An account is active in a bucket when one of its operations there is activity.
create or replace function derived_is_activity(status text) returns boolean
  language sql immutable parallel safe
  as $$ select status = 'completed' $$;

-- Volume: points moved in either direction.
create or replace function derived_volume(points numeric) returns numeric
  language sql immutable parallel safe
  as $$ select abs(points) $$;

-- A card's issued date: when it was issued, or created if it never was.
create or replace function derived_card_issued_at(issued_at timestamptz, created_at timestamptz)
  returns timestamptz language sql immutable parallel safe
  as $$ select coalesce(issued_at, created_at) $$;

-- Buckets are UTC hours and days whatever the session time zone.
create or replace function derived_bucket(unit text, at timestamptz) returns timestamptz
  language sql stable parallel safe
  as $$ select date_trunc(unit, at, 'UTC') $$;

-- 0..23: the UTC hour of the day, the index of an account-day's hour counters (1-based in the array).
create or replace function derived_hour_of_day(at timestamptz) returns integer
  language sql immutable parallel safe
  as $$ select extract(hour from at at time zone 'UTC')::integer $$;

-- The keys of an operation in `operation_search_counts`: every prefix of one to three characters of its
-- card number (c) and of its operation id (o), and the prefixes they share (b), so the total of a
-- "starts with" search is c + o - b, exactly like the OR of the two LIKEs.
create or replace function derived_search_prefixes(card_number text, operation_id text)
  returns table (ch text, kind text) language sql immutable parallel safe as $$
    select left(card_number, len), 'c' from (values (1), (2), (3)) l (len) where length(card_number) >= len
    union all
    select left(operation_id, len), 'o' from (values (1), (2), (3)) l (len) where length(operation_id) >= len
    union all
    select left(card_number, len), 'b' from (values (1), (2), (3)) l (len)
    where length(card_number) >= len and length(operation_id) >= len
      and left(card_number, len) = left(operation_id, len)
  $$;

-- The keys of an account in `account_search_counts`: its client ID's distinct substrings of one and two
-- characters, lower-cased (a search of three or more characters uses the trigram index instead).
create or replace function derived_client_id_grams(client_id text) returns setof text
  language sql immutable parallel safe as $$
    select distinct substr(lower(client_id), i, len)
    from generate_series(1, length(client_id)) i, (values (1), (2)) l (len)
    where i + len - 1 <= length(client_id)
  $$;
