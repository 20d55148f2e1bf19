-- Derived data, version 017: the points-flow rollup (the finance report, PROGRAMME-API §2).
--
-- `points_flow_days`: per UTC day, POS (null: written in the console or by an import) and flow kind, the
-- signed sum of the points of the operations that moved a balance, sharded by writer like every counter
-- (`derived_shard()`; readers sum the shards). Every completed accrual, redemption, adjustment and expiry
-- moves a balance (verify-ledger's rule), so over all days the rows sum to Σ balances.
--
-- Its own statement-level triggers on `operations`, beside `derived_operations_changed` rather than inside
-- it: the rollup is additive, and a later migration that redefines that function (lots, the write path)
-- cannot drop it by copying an older body. The transition tables are captured once per statement and
-- shared by every trigger on the event, so the second trigger reads them without capturing them again.

create table points_flow_days (
  bucket timestamptz not null,
  pos_id uuid,
  kind text not null check (kind in ('earned', 'redeemed', 'returned', 'expired', 'adjusted')),
  shard smallint not null,
  points numeric not null default 0
);
-- Console and import writes have no POS: a null is one key, not a new row per statement.
create unique index points_flow_days_key on points_flow_days (bucket, kind, pos_id, shard) nulls not distinct;
create index points_flow_days_pos_idx on points_flow_days (pos_id, bucket) where pos_id is not null;

-- The flow an operation belongs to, or null when it moves no balance. `earned` = POS accruals; a POS
-- adjustment is a return (the only adjustment a till makes); other adjustments are console and imported
-- credits (`adjusted`). `expiry` is the lots' operation type (issue 9), a plain string here so this rule
-- does not wait for the enum.
create or replace function derived_flow_kind(type text, status text, pos_id uuid) returns text
  language sql immutable parallel safe as $$
    select case
      when status <> 'completed' then null
      when type = 'accrual' then 'earned'
      when type = 'redemption' then 'redeemed'
      when type = 'expiry' then 'expired'
      when type = 'adjustment' and pos_id is not null then 'returned'
      when type = 'adjustment' then 'adjusted'
    end
  $$;

create or replace function derived_rollup_points_flow(added operations[], removed operations[]) returns void
  language plpgsql as $$
begin
  insert into points_flow_days as r (bucket, kind, pos_id, shard, points)
    select derived_bucket('day', d.created_at), d.kind, d.pos_id, derived_shard(), sum(d.points)
    from (
      select o.created_at, derived_flow_kind(o.type, o.status, o.pos_id) as kind, o.pos_id, o.points
      from unnest(added) o
      union all
      select o.created_at, derived_flow_kind(o.type, o.status, o.pos_id), o.pos_id, -o.points
      from unnest(removed) o
    ) d
    where d.kind is not null
    group by 1, 2, 3 having sum(d.points) <> 0
    order by 1, 2, 3
    on conflict (bucket, kind, pos_id, shard) do update set points = r.points + excluded.points;
end $$;

-- Most POS statements move no flow (holds, a capture's hold update, refusals): they end after one read of
-- each transition table.
create or replace function derived_points_flow_changed() returns trigger language plpgsql as $$
declare
  added operations[] := '{}';
  removed operations[] := '{}';
begin
  if tg_op <> 'DELETE' then
    added := array(select n from new_rows n where derived_flow_kind(n.type, n.status, n.pos_id) is not null);
  end if;
  if tg_op <> 'INSERT' then
    removed := array(select o from old_rows o where derived_flow_kind(o.type, o.status, o.pos_id) is not null);
  end if;
  if cardinality(added) + cardinality(removed) > 0 then
    perform derived_rollup_points_flow(added, removed);
  end if;
  return null;
end $$;

create trigger derived_points_flow_insert after insert on operations
  referencing new table as new_rows for each statement execute function derived_points_flow_changed();
create trigger derived_points_flow_update after update on operations
  referencing old table as old_rows new table as new_rows
  for each statement execute function derived_points_flow_changed();
create trigger derived_points_flow_delete after delete on operations
  referencing old table as old_rows for each statement execute function derived_points_flow_changed();

create or replace function derived_points_flow_truncated() returns trigger language plpgsql as $$
begin
  delete from points_flow_days;
  return null;
end $$;

create trigger derived_points_flow_truncate after truncate on operations
  for each statement execute function derived_points_flow_truncated();

-- The rollup recomputed from the raw table into shard 0 (the triggers then add their own shards): run
-- below for the operations already written, and by `npm run rebuild-derived` after a bulk load.
create or replace function derived_rebuild_points_flow() returns void language plpgsql as $$
begin
  delete from points_flow_days;
  insert into points_flow_days (bucket, kind, pos_id, shard, points)
    select derived_bucket('day', created_at), derived_flow_kind(type, status, pos_id), pos_id, 0, sum(points)
    from operations
    where derived_flow_kind(type, status, pos_id) is not null
    group by 1, 2, 3 having sum(points) <> 0;
end $$;

select derived_rebuild_points_flow();
