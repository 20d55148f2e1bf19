-- Derived data, version 010: the analytics rollups (the dashboard). Same meaning as migration 004:
--
-- - `analytics_hourly`: per UTC hour, activity operations, their volume, distinct active accounts and
--   issued cards, plus `day_accounts`: the hour's contribution to its day's distinct active accounts (+1
--   where an account's first activity of the day was counted, -1 where its last was uncounted), so a day
--   is the sum of its hours and an operation write touches a single counter row.
-- - `analytics_account_days`: which accounts were active on a day, with their number of activity
--   operations that day and per hour (`hour_operations[1..24]`). A counter moves only when the day's or
--   the hour's number goes 0 -> 1 or 1 -> 0. The upsert locks the account-day row, so a concurrent "last
--   uncounted" and "first counted" see each other: no double or lost count.
-- - `analytics_points_totals`: sum of balances and of held balances, moved by deltas.

-- Counts (sign = 1) or uncounts (sign = -1) one activity operation. It runs inside every accrual's
-- transaction, so it does as few statements as it can: one upsert and one update.
create or replace function derived_rollup_operation(account uuid, at timestamptz, points numeric, sign integer)
  returns void language plpgsql as $$
declare
  hour_bucket timestamptz := derived_bucket('hour', at);
  day_bucket timestamptz := derived_bucket('day', at);
  hour_index integer := derived_hour_of_day(at) + 1;
  writer_shard smallint := derived_shard();
  day_n integer;
  hour_n integer;
  new_hour integer := 0;
  new_day integer := 0;
  first_hour integer[];
begin
  if account is not null then
    if sign > 0 then
      first_hour := array_fill(0, array[24]);
      first_hour[hour_index] := 1;
      insert into analytics_account_days as m values (day_bucket, account, 1, first_hour)
        on conflict (bucket, account_id) do update
          set operations = m.operations + 1, hour_operations[hour_index] = m.hour_operations[hour_index] + 1
        returning m.operations, m.hour_operations[hour_index] into day_n, hour_n;
      new_hour := (hour_n = 1)::integer;
      new_day := (day_n = 1)::integer;
    else
      update analytics_account_days as m
        set operations = m.operations - 1, hour_operations[hour_index] = m.hour_operations[hour_index] - 1
        where m.bucket = day_bucket and m.account_id = account
        returning m.operations, m.hour_operations[hour_index] into day_n, hour_n;
      if day_n = 0 then
        delete from analytics_account_days where bucket = day_bucket and account_id = account;
      end if;
      -- No row means rollups already out of step (a load without rebuild): never fail the write.
      new_hour := -(coalesce(hour_n, 1) = 0)::integer;
      new_day := -(coalesce(day_n, 1) = 0)::integer;
    end if;
  end if;

  -- UPDATE first: the row of this hour and backend nearly always exists, and a plain update is cheaper
  -- than an upsert (no separate row-lock record in the WAL). The upsert covers the first write.
  update analytics_hourly
    set operations = operations + sign, volume = volume + sign * derived_volume(points),
        active_accounts = active_accounts + new_hour, day_accounts = day_accounts + new_day
    where bucket = hour_bucket and shard = writer_shard;
  if not found then
    insert into analytics_hourly as r (bucket, shard, operations, volume, active_accounts, day_accounts)
      values (hour_bucket, writer_shard, sign, sign * derived_volume(points), new_hour, new_day)
      on conflict (bucket, shard) do update set
        operations = r.operations + excluded.operations,
        volume = r.volume + excluded.volume,
        active_accounts = r.active_accounts + excluded.active_accounts,
        day_accounts = r.day_accounts + excluded.day_accounts;
  end if;
end $$;

-- Counts (sign = 1) or uncounts (sign = -1) one card issued at `issued`.
create or replace function derived_rollup_card(issued timestamptz, sign integer) returns void
  language plpgsql as $$
begin
  insert into analytics_hourly as r (bucket, shard, issued_cards)
    values (derived_bucket('hour', issued), derived_shard(), sign)
    on conflict (bucket, shard) do update set issued_cards = r.issued_cards + excluded.issued_cards;
end $$;

-- Moves the points totals by one account change.
create or replace function derived_rollup_points(balance_delta numeric, held_delta numeric) returns void
  language plpgsql as $$
declare
  writer_shard smallint := derived_shard();
begin
  update analytics_points_totals
    set balance = balance + balance_delta, held_balance = held_balance + held_delta
    where shard = writer_shard;
  if not found then
    insert into analytics_points_totals as t values (writer_shard, balance_delta, held_delta)
      on conflict (shard) do update
        set balance = t.balance + excluded.balance, held_balance = t.held_balance + excluded.held_balance;
  end if;
end $$;
