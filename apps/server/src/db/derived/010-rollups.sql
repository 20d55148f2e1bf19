-- Derived data, version 010: the analytics rollups (the dashboard). Same meaning as migration 004:
--
-- - `analytics_hourly`: per UTC hour, activity operations, their volume, distinct active accounts and
--   issued cards, plus `day_accounts`: the day's distinct active accounts, credited to one of the day's
--   hours (the triggers and the rebuild credit the day's first hour), so a day is the sum of its hours.
-- - `analytics_account_days`: which accounts were active on a day, with their number of activity
--   operations that day and per hour (`hour_operations[1..24]`). An hour's or a day's active accounts move
--   only when that number goes from 0 to more or back. The upsert locks the account-day row and returns
--   it after the change, so a concurrent "last uncounted" and "first counted" see each other: no double
--   or lost count.
-- - `analytics_points_totals`: sum of balances and of held balances, moved by deltas.
--
-- Each function takes the rows a statement added and removed (an update: new and old versions), so a
-- statement of any size writes each rollup row once.

-- 24 hour counters from (hour of day, count) pairs, and their sum: plain plpgsql arithmetic (an SQL
-- function with a FROM would be planned again on every call, inside every accrual).
create or replace function derived_hour_counts(hours integer[], counts integer[]) returns integer[]
  language plpgsql immutable parallel safe as $$
declare
  result integer[] := array_fill(0, array[24]);
begin
  for i in 1 .. cardinality(hours) loop
    result[hours[i] + 1] := result[hours[i] + 1] + counts[i];
  end loop;
  return result;
end $$;

create or replace function derived_add_counts(a integer[], b integer[]) returns integer[]
  language plpgsql immutable parallel safe as $$
begin
  for i in 1 .. 24 loop
    a[i] := a[i] + b[i];
  end loop;
  return a;
end $$;

create or replace function derived_rollup_operations(added operations[], removed operations[]) returns void
  language plpgsql as $$
begin
  with activity (at, account_id, points, sign) as (
    select o.created_at, o.account_id, o.points, 1 from unnest(added) o where derived_is_activity(o.status)
    union all
    select o.created_at, o.account_id, o.points, -1 from unnest(removed) o where derived_is_activity(o.status)
  ),
  per_hour as (
    select derived_bucket('day', at) as day, account_id, derived_bucket('hour', at) as bucket,
           derived_hour_of_day(at) as hour, sum(sign)::integer as n
    from activity where account_id is not null
    group by 1, 2, 3, 4 having sum(sign) <> 0
  ),
  per_day as (
    select day, account_id, sum(n)::integer as n, derived_hour_counts(array_agg(hour), array_agg(n)) as hours
    from per_hour group by 1, 2
  ),
  account_days as (
    insert into analytics_account_days as m (bucket, account_id, operations, hour_operations)
      select day, account_id, n, hours from per_day order by day, account_id
      on conflict (bucket, account_id) do update set
        operations = m.operations + excluded.operations,
        hour_operations = derived_add_counts(m.hour_operations, excluded.hour_operations)
      returning m.bucket, m.account_id, m.operations, m.hour_operations
  ),
  deltas (bucket, operations, volume, active_accounts, day_accounts) as (
    select derived_bucket('hour', at), sum(sign), sum(sign * derived_volume(points)), 0, 0
    from activity group by 1
    union all
    -- An hour's active accounts: those whose count there went from 0 to more (+1) or back (-1).
    select h.bucket, 0, 0, (after > 0)::integer - (after - h.n > 0)::integer, 0
    from account_days a
    join per_hour h on h.day = a.bucket and h.account_id = a.account_id
    cross join lateral (select a.hour_operations[h.hour + 1] as after) x
    union all
    select a.bucket, 0, 0, 0, (a.operations > 0)::integer - (a.operations - d.n > 0)::integer
    from account_days a join per_day d on d.day = a.bucket and d.account_id = a.account_id
  )
  insert into analytics_hourly as r (bucket, shard, operations, volume, active_accounts, day_accounts)
    select bucket, derived_shard(), sum(operations), sum(volume), sum(active_accounts), sum(day_accounts)
    from deltas group by bucket
    having sum(operations) <> 0 or sum(volume) <> 0 or sum(active_accounts) <> 0 or sum(day_accounts) <> 0
    order by bucket
    on conflict (bucket, shard) do update set
      operations = r.operations + excluded.operations,
      volume = r.volume + excluded.volume,
      active_accounts = r.active_accounts + excluded.active_accounts,
      day_accounts = r.day_accounts + excluded.day_accounts;

  -- A day whose last activity was uncounted leaves the table (the statement above cannot see its own rows).
  if cardinality(removed) > 0 then
    delete from analytics_account_days m
    using unnest(removed) o
    where derived_is_activity(o.status) and m.bucket = derived_bucket('day', o.created_at)
      and m.account_id = o.account_id and m.operations = 0;
  end if;
end $$;

create or replace function derived_rollup_cards(added cards[], removed cards[]) returns void
  language plpgsql as $$
begin
  insert into analytics_hourly as r (bucket, shard, issued_cards)
    select derived_bucket('hour', issued), derived_shard(), sum(sign)
    from (
      select derived_card_issued_at(c.issued_at, c.created_at), 1 from unnest(added) c
      union all
      select derived_card_issued_at(c.issued_at, c.created_at), -1 from unnest(removed) c
    ) d (issued, sign)
    group by 1 having sum(sign) <> 0 order by 1
    on conflict (bucket, shard) do update set issued_cards = r.issued_cards + excluded.issued_cards;
end $$;

-- Runs on every POS write (a balance moves): UPDATE first, since this backend's row nearly always exists
-- and a plain update is cheaper than an upsert (no separate row-lock record in the WAL).
create or replace function derived_rollup_points(balance_delta numeric, held_delta numeric) returns void
  language plpgsql as $$
declare
  writer_shard smallint := derived_shard();
begin
  update analytics_points_totals
    set balance = balance + balance_delta, held_balance = held_balance + held_delta
    where shard = writer_shard;
  if not found then
    insert into analytics_points_totals as t (shard, balance, held_balance)
      values (writer_shard, balance_delta, held_delta)
      on conflict (shard) do update
        set balance = t.balance + excluded.balance, held_balance = t.held_balance + excluded.held_balance;
  end if;
end $$;
