-- Derived data, version 010: the row counters (exact list totals and short searches, read by the list
-- endpoints). Each function takes what left (old, null on insert) and what arrived (new, null on
-- delete) and adds the difference to this backend's shard, netted per key: an update that keeps a key
-- writes nothing for it. Keys are upserted in a fixed order, so two writers never lock counter rows in
-- opposite orders.

create or replace function derived_count_operation(old_row operations, new_row operations) returns void
  language plpgsql as $$
begin
  insert into operation_counts as c (type, status, shard, n)
    select d.type, d.status, derived_shard(), sum(d.delta)
    from (
      select new_row.type, new_row.status, 1 where new_row.id is not null
      union all
      select old_row.type, old_row.status, -1 where old_row.id is not null
    ) d (type, status, delta)
    group by d.type, d.status having sum(d.delta) <> 0 order by d.type, d.status
    on conflict (type, status, shard) do update set n = c.n + excluded.n;
  insert into operation_search_counts as c (ch, kind, type, status, shard, n)
    select p.ch, p.kind, d.type, d.status, derived_shard(), sum(d.delta)
    from (
      select new_row.type, new_row.status, new_row.card_number, new_row.operation_id, 1
      where new_row.id is not null
      union all
      select old_row.type, old_row.status, old_row.card_number, old_row.operation_id, -1
      where old_row.id is not null
    ) d (type, status, card_number, operation_id, delta)
    cross join lateral derived_search_prefixes(d.card_number, d.operation_id) p
    group by p.ch, p.kind, d.type, d.status having sum(d.delta) <> 0
    order by p.ch, p.kind, d.type, d.status
    on conflict (ch, kind, type, status, shard) do update set n = c.n + excluded.n;
end $$;

create or replace function derived_count_card(old_status text, new_status text) returns void
  language plpgsql as $$
begin
  insert into card_counts as c (status, shard, n)
    select d.status, derived_shard(), sum(d.delta)
    from (values (new_status, 1), (old_status, -1)) d (status, delta)
    where d.status is not null
    group by d.status having sum(d.delta) <> 0 order by d.status
    on conflict (status, shard) do update set n = c.n + excluded.n;
end $$;

create or replace function derived_count_account(old_client_id text, new_client_id text) returns void
  language plpgsql as $$
begin
  if (old_client_id is null) <> (new_client_id is null) then
    insert into account_counts as c (shard, n)
      values (derived_shard(), case when new_client_id is null then -1 else 1 end)
      on conflict (shard) do update set n = c.n + excluded.n;
  end if;
  insert into account_search_counts as c (gram, shard, n)
    select d.gram, derived_shard(), sum(d.delta)
    from (
      select gram, 1 from derived_client_id_grams(new_client_id) gram
      union all
      select gram, -1 from derived_client_id_grams(old_client_id) gram
    ) d (gram, delta)
    group by d.gram having sum(d.delta) <> 0 order by d.gram
    on conflict (gram, shard) do update set n = c.n + excluded.n;
end $$;
