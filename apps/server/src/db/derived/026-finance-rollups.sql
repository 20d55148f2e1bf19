-- Derived data, version 026: two rollups that keep the finance report and the dashboard's lot figures
-- independent of the ledger's size (issue 9: "fast at 10M operations"), and active accounts that an expiry
-- run no longer makes active (3, at the end).
--
-- 1. `points_flow_totals`: the programme's points flow per UTC day and per UTC month × flow kind, without
--    the POS dimension. `points_flow_days` (017) has a row per day × POS × kind × shard, so a programme-wide
--    year read hundreds of POS rows per day; this one has a handful per day, and a month is one row per kind
--    and shard. A month row is the sum of its day rows: one statement writes both, from the same deltas.
--    017's function is redefined here (create or replace) with its body unchanged plus the second insert.
--
-- 2. `lots_outstanding_hours`: Σ remaining of the lots per UTC hour of `available_at` (kind 'available')
--    and of `expires_at` (kind 'expires'), for the pending total and 'expiring in 30 days'. Without it both
--    summed every lot in the range: at 10M operations a month of credits, millions of lots, on every report.
--    Only hours from the writer's current one on are kept: a reader (db/.. outstanding.repository.ts) takes
--    the hours after its own from here and the lots before them (overdue lots the sweeper has not reached
--    yet, the current hour, and the last partial hour of the 30 days) from the lots' partial indexes. An
--    hour is no longer written once it is past, so a past hour's row means nothing and is never read. This
--    is exact for any reader whose transaction is under an hour old (the app's reads are single statements):
--    a writer stops writing an hour only once it has begun, a full hour before any such reader stops
--    reading it.
--
-- Both are sharded by writer (`derived_shard()`) and kept by statement-level triggers in the writing
-- transaction, as every derived table (db/DERIVED.md).

create table points_flow_totals (
  grain text not null check (grain in ('day', 'month')),
  bucket timestamptz not null,
  kind text not null check (kind in ('earned', 'redeemed', 'returned', 'expired', 'adjusted')),
  shard smallint not null,
  points numeric not null default 0,
  primary key (grain, bucket, kind, shard)
);

create or replace function derived_rollup_points_flow(added operations[], removed operations[]) returns void
  language plpgsql as $$
begin
  with d as (
    select derived_bucket('day', o.created_at) as bucket, derived_flow_kind(o.type, o.status, o.pos_id) as kind,
      o.pos_id, o.points
    from unnest(added) o
    union all
    select derived_bucket('day', o.created_at), derived_flow_kind(o.type, o.status, o.pos_id), o.pos_id, -o.points
    from unnest(removed) o
  ),
  by_pos as (
    insert into points_flow_days as r (bucket, kind, pos_id, shard, points)
      select d.bucket, d.kind, d.pos_id, derived_shard(), sum(d.points) from d
      where d.kind is not null
      group by 1, 2, 3 having sum(d.points) <> 0
      order by 1, 2, 3
      on conflict (bucket, kind, pos_id, shard) do update set points = r.points + excluded.points
  )
  insert into points_flow_totals as t (grain, bucket, kind, shard, points)
    select g.grain, g.bucket, d.kind, derived_shard(), sum(d.points)
    from d cross join lateral (values ('day', d.bucket), ('month', derived_bucket('month', d.bucket))) g (grain, bucket)
    where d.kind is not null
    group by 1, 2, 3 having sum(d.points) <> 0
    order by 1, 2, 3
    on conflict (grain, bucket, kind, shard) do update set points = t.points + excluded.points;
end $$;

-- The totals from the per-POS rollup (same sums, summed over POS and shards): the backfill below, and the
-- last step of every rebuild.
create or replace function derived_rebuild_points_flow_totals() returns void language plpgsql as $$
begin
  delete from points_flow_totals;
  insert into points_flow_totals (grain, bucket, kind, shard, points)
    select g.grain, g.bucket, f.kind, 0, sum(f.points)
    from points_flow_days f
    cross join lateral (values ('day', f.bucket), ('month', derived_bucket('month', f.bucket))) g (grain, bucket)
    group by 1, 2, 3 having sum(f.points) <> 0;
end $$;

create or replace function derived_rebuild_points_flow() returns void language plpgsql as $$
begin
  delete from points_flow_days;
  insert into points_flow_days (bucket, kind, pos_id, shard, points)
    select derived_bucket('day', created_at), derived_flow_kind(type, status, pos_id), pos_id, 0, sum(points)
    from operations
    where derived_flow_kind(type, status, pos_id) is not null
    group by 1, 2, 3 having sum(points) <> 0;
  perform derived_rebuild_points_flow_totals();
end $$;

create or replace function derived_points_flow_truncated() returns trigger language plpgsql as $$
begin
  delete from points_flow_days;
  delete from points_flow_totals;
  return null;
end $$;

select derived_rebuild_points_flow_totals();

create table lots_outstanding_hours (
  kind text not null check (kind in ('available', 'expires')),
  bucket timestamptz not null,
  shard smallint not null,
  remaining numeric not null default 0,
  primary key (kind, bucket, shard)
);

-- The lots' remaining per hour, from the lots a statement added and removed (an update: new and old
-- versions), for the hours from `horizon` on. A lot's remaining counts whatever it is (0 adds nothing).
create or replace function derived_rollup_lots(added lots[], removed lots[], horizon timestamptz) returns void
  language plpgsql as $$
begin
  insert into lots_outstanding_hours as r (kind, bucket, shard, remaining)
    select d.kind, derived_bucket('hour', d.at), derived_shard(), sum(d.remaining)
    from (
      select 'available' as kind, l.available_at as at, l.remaining from unnest(added) l
      union all
      select 'expires', l.expires_at, l.remaining from unnest(added) l
      union all
      select 'available', l.available_at, -l.remaining from unnest(removed) l
      union all
      select 'expires', l.expires_at, -l.remaining from unnest(removed) l
    ) d
    where d.at >= horizon
    group by 1, 2 having sum(d.remaining) <> 0
    order by 1, 2
    on conflict (kind, bucket, shard) do update set remaining = r.remaining + excluded.remaining;
end $$;

-- Most lot writes touch only lots whose dates are past (an accrual's lot is available at once; without an
-- expiry setting it never expires): those end after one read of each transition table.
create or replace function derived_lots_changed() returns trigger language plpgsql as $$
declare
  horizon timestamptz := derived_bucket('hour', now());
  added lots[] := '{}';
  removed lots[] := '{}';
begin
  if tg_op <> 'DELETE' then
    added := array(select n from new_rows n where n.available_at >= horizon or n.expires_at >= horizon);
  end if;
  if tg_op <> 'INSERT' then
    removed := array(select o from old_rows o where o.available_at >= horizon or o.expires_at >= horizon);
  end if;
  if cardinality(added) + cardinality(removed) > 0 then
    perform derived_rollup_lots(added, removed, horizon);
  end if;
  return null;
end $$;

create trigger derived_lots_insert after insert on lots
  referencing new table as new_rows for each statement execute function derived_lots_changed();
create trigger derived_lots_update after update on lots
  referencing old table as old_rows new table as new_rows
  for each statement execute function derived_lots_changed();
create trigger derived_lots_delete after delete on lots
  referencing old table as old_rows for each statement execute function derived_lots_changed();

create or replace function derived_lots_truncated() returns trigger language plpgsql as $$
begin
  delete from lots_outstanding_hours;
  return null;
end $$;

create trigger derived_lots_truncate after truncate on lots
  for each statement execute function derived_lots_truncated();

-- What a reader takes from the lots themselves (the current hour, overdue lots, the last partial hour) is
-- read from these two partial indexes alone: they carry `remaining`, so the sums are index-only scans
-- instead of a heap visit per lot (at 10M operations an hour of credits is about ten thousand lots). The
-- same keys and predicates as before (015's sweeper index, 023's pending one), so the plans that used
-- them do not change.
drop index lots_due_idx;
create index lots_due_idx on lots (expires_at) include (remaining) where remaining > 0 and expires_at is not null;
drop index lots_pending_idx;
create index lots_pending_idx on lots (available_at) include (remaining) where remaining > 0;

-- Recomputed from the lots (after a bulk load, and below for the lots already written), for the hours
-- from the current one on, into shard 0.
create or replace function derived_rebuild_lots_outstanding() returns void language plpgsql as $$
declare
  horizon timestamptz := derived_bucket('hour', now());
begin
  delete from lots_outstanding_hours;
  insert into lots_outstanding_hours (kind, bucket, shard, remaining)
    select d.kind, derived_bucket('hour', d.at), 0, sum(d.remaining)
    from (
      select 'available' as kind, available_at as at, remaining from lots
      where remaining > 0 and available_at >= horizon
      union all
      select 'expires', expires_at, remaining from lots where remaining > 0 and expires_at >= horizon
    ) d
    group by 1, 2 having sum(d.remaining) <> 0;
end $$;

select derived_rebuild_lots_outstanding();

-- 3. Active accounts are members' activity: an `expiry` is the programme acting on an account (usually a
--    dormant one), not the member doing something, so it no longer makes its account active on the
--    dashboard (ADMIN-API "retention", PROGRAMME-API §1: an expiry shows in Operations, client lookup and
--    analytics volume). It still counts in the analytics' operations and volume. 010's
--    `derived_rollup_operations` is redefined with that one change (the account-day counts take only
--    `derived_is_member_activity`); the rebuild and the reference read the same definition. The expiries
--    already counted are taken out with the old definition and put back with the new one, so the rollups
--    stay exact across the migration.

create or replace function derived_is_member_activity(type text, status text) returns boolean
  language sql immutable parallel safe
  as $$ select status = 'completed' and type <> 'expiry' $$;

select derived_rollup_operations('{}',
  array(select o from operations o where o.type = 'expiry' and derived_is_activity(o.status)));

create or replace function derived_rollup_operations(added operations[], removed operations[]) returns void
  language plpgsql as $$
begin
  with activity (at, account_id, points, sign, member) as (
    select o.created_at, o.account_id, o.points, 1, derived_is_member_activity(o.type, o.status)
    from unnest(added) o where derived_is_activity(o.status)
    union all
    select o.created_at, o.account_id, o.points, -1, derived_is_member_activity(o.type, o.status)
    from unnest(removed) o where derived_is_activity(o.status)
  ),
  per_hour as (
    select derived_bucket('day', at) as day, account_id, derived_bucket('hour', at) as bucket,
           derived_hour_of_day(at) as hour, sum(sign)::integer as n
    from activity where account_id is not null and member
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
    where derived_is_member_activity(o.type, o.status) and m.bucket = derived_bucket('day', o.created_at)
      and m.account_id = o.account_id and m.operations = 0;
  end if;
end $$;

select derived_rollup_operations(
  array(select o from operations o where o.type = 'expiry' and derived_is_activity(o.status)), '{}');
