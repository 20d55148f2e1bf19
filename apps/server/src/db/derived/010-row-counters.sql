-- Derived data, version 010: the row counters (exact list totals and short searches, read by the list
-- endpoints). Each function takes the rows a statement added and removed (an update: the new and the old
-- versions) and adds the difference to this backend's shard, netted per key: a key whose count does not
-- change is not written. Keys are upserted in a fixed order, so two writers never lock counter rows in
-- opposite orders.

create or replace function derived_count_operations(added operations[], removed operations[]) returns void
  language plpgsql as $$
begin
  insert into operation_counts as c (type, status, shard, n)
    select d.type, d.status, derived_shard(), sum(d.delta)
    from (
      select o.type, o.status, 1 from unnest(added) o
      union all
      select o.type, o.status, -1 from unnest(removed) o
    ) d (type, status, delta)
    group by d.type, d.status having sum(d.delta) <> 0 order by d.type, d.status
    on conflict (type, status, shard) do update set n = c.n + excluded.n;
  insert into operation_search_counts as c (ch, kind, type, status, shard, n)
    select p.ch, p.kind, d.type, d.status, derived_shard(), sum(d.delta)
    from (
      select o.type, o.status, o.card_number, o.operation_id, 1 from unnest(added) o
      union all
      select o.type, o.status, o.card_number, o.operation_id, -1 from unnest(removed) o
    ) d (type, status, card_number, operation_id, delta)
    cross join lateral derived_search_prefixes(d.card_number, d.operation_id) p
    group by p.ch, p.kind, d.type, d.status having sum(d.delta) <> 0
    order by p.ch, p.kind, d.type, d.status
    on conflict (ch, kind, type, status, shard) do update set n = c.n + excluded.n;
end $$;

create or replace function derived_count_cards(added cards[], removed cards[]) returns void
  language plpgsql as $$
begin
  insert into card_counts as c (status, shard, n)
    select d.status, derived_shard(), sum(d.delta)
    from (
      select o.status, 1 from unnest(added) o
      union all
      select o.status, -1 from unnest(removed) o
    ) d (status, delta)
    group by d.status having sum(d.delta) <> 0 order by d.status
    on conflict (status, shard) do update set n = c.n + excluded.n;
end $$;

-- An update passes only the accounts whose client ID changed (a balance update moves no counter).
create or replace function derived_count_accounts(added accounts[], removed accounts[]) returns void
  language plpgsql as $$
begin
  if cardinality(added) <> cardinality(removed) then
    insert into account_counts as c (shard, n)
      values (derived_shard(), cardinality(added) - cardinality(removed))
      on conflict (shard) do update set n = c.n + excluded.n;
  end if;
  insert into account_search_counts as c (gram, shard, n)
    select g.gram, derived_shard(), sum(d.delta)
    from (
      select o.client_id, 1 from unnest(added) o
      union all
      select o.client_id, -1 from unnest(removed) o
    ) d (client_id, delta)
    cross join lateral derived_client_id_grams(d.client_id) g (gram)
    group by g.gram having sum(d.delta) <> 0 order by g.gram
    on conflict (gram, shard) do update set n = c.n + excluded.n;
end $$;
