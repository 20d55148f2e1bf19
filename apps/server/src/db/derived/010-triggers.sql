-- Derived data, version 010: what fires. One convention for both families: statement-level AFTER
-- triggers with transition tables, one per raw table and event (PostgreSQL allows transition tables only
-- on single-event triggers), all three on one trigger function per table. The function turns the
-- statement's rows into arrays of added and removed rows once and hands them to the rollups
-- (010-rollups.sql), then the row counters (010-row-counters.sql): each derived row is written once per
-- statement, whatever the statement's size. A query naming a transition table its event lacks fails when
-- planned, and each branch is planned only when it runs: hence the tg_op tests. TRUNCATE fires no row
-- trigger: a statement trigger empties what depends on the emptied table. This replaces the counter
-- triggers of migration 002 and the rollup triggers of migration 004.

drop trigger loyalty_core_operations_count_ins on operations;
drop trigger loyalty_core_operations_count_upd on operations;
drop trigger loyalty_core_operations_count_del on operations;
drop trigger loyalty_core_cards_count_ins on cards;
drop trigger loyalty_core_cards_count_upd on cards;
drop trigger loyalty_core_cards_count_del on cards;
drop trigger loyalty_core_accounts_count_ins on accounts;
drop trigger loyalty_core_accounts_count_del on accounts;
drop trigger loyalty_core_accounts_count_client_id on accounts;
drop function loyalty_core_count_operations(), loyalty_core_count_cards(), loyalty_core_count_accounts(),
  loyalty_core_count_client_id_change(), loyalty_core_count_shard(), loyalty_core_client_id_grams(text);

drop trigger analytics_operations_insert on operations;
drop trigger analytics_operations_update on operations;
drop trigger analytics_operations_delete on operations;
drop trigger analytics_operations_truncate on operations;
drop trigger analytics_cards_insert on cards;
drop trigger analytics_cards_update on cards;
drop trigger analytics_cards_delete on cards;
drop trigger analytics_cards_truncate on cards;
drop trigger analytics_accounts_insert on accounts;
drop trigger analytics_accounts_update on accounts;
drop trigger analytics_accounts_delete on accounts;
drop trigger analytics_accounts_truncate on accounts;
drop function analytics_operations_changed(), analytics_cards_changed(), analytics_accounts_changed(),
  analytics_truncated(), analytics_count_operation(uuid, timestamptz, numeric, integer),
  analytics_count_card(timestamptz, integer), analytics_writer_shard();

create or replace function derived_operations_changed() returns trigger language plpgsql as $$
declare
  added operations[] := '{}';
  removed operations[] := '{}';
  activity boolean := false;
begin
  if tg_op <> 'DELETE' then
    select coalesce(array_agg(n), '{}'), coalesce(bool_or(derived_is_activity(n.status)), false)
      into added, activity from new_rows n;
  end if;
  if tg_op <> 'INSERT' then
    select coalesce(array_agg(o), '{}'), activity or coalesce(bool_or(derived_is_activity(o.status)), false)
      into removed, activity from old_rows o;
  end if;
  -- Most POS statements move no activity (holds, captures, refusals): no rollup work at all then.
  if activity then
    perform derived_rollup_operations(added, removed);
  end if;
  if cardinality(added) + cardinality(removed) > 0 then
    perform derived_count_operations(added, removed);
  end if;
  return null;
end $$;

create trigger derived_operations_insert after insert on operations
  referencing new table as new_rows for each statement execute function derived_operations_changed();
create trigger derived_operations_update after update on operations
  referencing old table as old_rows new table as new_rows
  for each statement execute function derived_operations_changed();
create trigger derived_operations_delete after delete on operations
  referencing old table as old_rows for each statement execute function derived_operations_changed();

create or replace function derived_cards_changed() returns trigger language plpgsql as $$
declare
  added cards[] := '{}';
  removed cards[] := '{}';
begin
  if tg_op <> 'DELETE' then
    added := array(select n from new_rows n);
  end if;
  if tg_op <> 'INSERT' then
    removed := array(select o from old_rows o);
  end if;
  if cardinality(added) + cardinality(removed) > 0 then
    perform derived_rollup_cards(added, removed);
    perform derived_count_cards(added, removed);
  end if;
  return null;
end $$;

create trigger derived_cards_insert after insert on cards
  referencing new table as new_rows for each statement execute function derived_cards_changed();
create trigger derived_cards_update after update on cards
  referencing old table as old_rows new table as new_rows
  for each statement execute function derived_cards_changed();
create trigger derived_cards_delete after delete on cards
  referencing old table as old_rows for each statement execute function derived_cards_changed();

-- accounts: every POS write updates a balance, so an update moves the points totals from two sums and
-- passes the counters only the accounts whose client ID changed (usually none: no counter is touched).
create or replace function derived_accounts_changed() returns trigger language plpgsql as $$
declare
  added accounts[] := '{}';
  removed accounts[] := '{}';
  balance_delta numeric := 0;
  held_delta numeric := 0;
  renamed boolean := false;
begin
  if tg_op = 'INSERT' then
    added := array(select n from new_rows n);
    select coalesce(sum(balance), 0), coalesce(sum(held_balance), 0) into balance_delta, held_delta
      from new_rows;
  elsif tg_op = 'DELETE' then
    removed := array(select o from old_rows o);
    select -coalesce(sum(balance), 0), -coalesce(sum(held_balance), 0) into balance_delta, held_delta
      from old_rows;
  else
    -- One pass: the balance deltas, and whether a client ID changed (a full join, so a changed id counts as
    -- a rename too). A balance update (every POS write) stops here for the counters.
    select coalesce(sum(coalesce(n.balance, 0) - coalesce(o.balance, 0)), 0),
           coalesce(sum(coalesce(n.held_balance, 0) - coalesce(o.held_balance, 0)), 0),
           coalesce(bool_or(n.client_id is distinct from o.client_id), false)
      into balance_delta, held_delta, renamed
      from new_rows n full join old_rows o on o.id = n.id;
    if renamed then
      added := array(select n from new_rows n where not exists (
        select from old_rows o where o.id = n.id and o.client_id = n.client_id));
      removed := array(select o from old_rows o where not exists (
        select from new_rows n where n.id = o.id and n.client_id = o.client_id));
    end if;
  end if;
  if balance_delta <> 0 or held_delta <> 0 then
    perform derived_rollup_points(balance_delta, held_delta);
  end if;
  if cardinality(added) + cardinality(removed) > 0 then
    perform derived_count_accounts(added, removed);
  end if;
  return null;
end $$;

create trigger derived_accounts_insert after insert on accounts
  referencing new table as new_rows for each statement execute function derived_accounts_changed();
create trigger derived_accounts_update after update on accounts
  referencing old table as old_rows new table as new_rows
  for each statement execute function derived_accounts_changed();
create trigger derived_accounts_delete after delete on accounts
  referencing old table as old_rows for each statement execute function derived_accounts_changed();

-- TRUNCATE empties (or zeroes, where a row also carries another table's counts) what depends on the
-- emptied table, in both families.
create or replace function derived_truncated() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'operations' then
    delete from operation_counts;
    delete from operation_search_counts;
    delete from analytics_account_days;
    update analytics_hourly set operations = 0, volume = 0, active_accounts = 0, day_accounts = 0;
  elsif tg_table_name = 'cards' then
    delete from card_counts;
    update analytics_hourly set issued_cards = 0;
  else
    delete from account_counts;
    delete from account_search_counts;
    delete from analytics_points_totals;
  end if;
  return null;
end $$;

create trigger derived_operations_truncate after truncate on operations
  for each statement execute function derived_truncated();
create trigger derived_cards_truncate after truncate on cards
  for each statement execute function derived_truncated();
create trigger derived_accounts_truncate after truncate on accounts
  for each statement execute function derived_truncated();
