-- Derived data, version 010: what fires. One convention for both families: a row-level AFTER trigger
-- per raw table and event, whose WHEN clause skips the function call when nothing derived changed, and
-- one trigger function per table that moves the rollups, then the row counters (010-rollups.sql,
-- 010-row-counters.sql). TRUNCATE fires no row trigger: a statement trigger empties what depends on the
-- emptied table. This replaces the statement-level counter triggers of migration 002 and the row-level
-- rollup triggers of migration 004.

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

-- operations: rollups when activity moves, counters when a counted column moves.
create or replace function derived_operations_changed() returns trigger language plpgsql as $$
begin
  if tg_op <> 'UPDATE' or (old.status, old.points, old.created_at, old.account_id)
      is distinct from (new.status, new.points, new.created_at, new.account_id) then
    if tg_op <> 'INSERT' and derived_is_activity(old.status) then
      perform derived_rollup_operation(old.account_id, old.created_at, old.points, -1);
    end if;
    if tg_op <> 'DELETE' and derived_is_activity(new.status) then
      perform derived_rollup_operation(new.account_id, new.created_at, new.points, 1);
    end if;
  end if;
  if tg_op <> 'UPDATE' or (old.type, old.status, old.card_number, old.operation_id)
      is distinct from (new.type, new.status, new.card_number, new.operation_id) then
    perform derived_count_operation(old, new);
  end if;
  return null;
end $$;

create trigger derived_operations_insert after insert on operations
  for each row execute function derived_operations_changed();
create trigger derived_operations_update
  after update of type, status, card_number, operation_id, points, created_at, account_id on operations
  for each row when (
    (old.type, old.status, old.card_number, old.operation_id, old.points, old.created_at, old.account_id)
    is distinct from
    (new.type, new.status, new.card_number, new.operation_id, new.points, new.created_at, new.account_id))
  execute function derived_operations_changed();
create trigger derived_operations_delete after delete on operations
  for each row execute function derived_operations_changed();

-- cards: the issued-cards rollup when the issued date moves, counters when the status does.
create or replace function derived_cards_changed() returns trigger language plpgsql as $$
begin
  if tg_op <> 'UPDATE' or derived_card_issued_at(old.issued_at, old.created_at)
      is distinct from derived_card_issued_at(new.issued_at, new.created_at) then
    if tg_op <> 'INSERT' then
      perform derived_rollup_card(derived_card_issued_at(old.issued_at, old.created_at), -1);
    end if;
    if tg_op <> 'DELETE' then
      perform derived_rollup_card(derived_card_issued_at(new.issued_at, new.created_at), 1);
    end if;
  end if;
  if tg_op <> 'UPDATE' or old.status is distinct from new.status then
    perform derived_count_card(old.status, new.status);
  end if;
  return null;
end $$;

create trigger derived_cards_insert after insert on cards
  for each row execute function derived_cards_changed();
create trigger derived_cards_update after update of status, issued_at, created_at on cards
  for each row when (old.status is distinct from new.status
    or derived_card_issued_at(old.issued_at, old.created_at)
      is distinct from derived_card_issued_at(new.issued_at, new.created_at))
  execute function derived_cards_changed();
create trigger derived_cards_delete after delete on cards
  for each row execute function derived_cards_changed();

-- accounts: the points totals when a balance moves, counters when a client ID does (insert, delete,
-- rename). A POS balance update runs this once, for the totals only.
create or replace function derived_accounts_changed() returns trigger language plpgsql as $$
declare
  balance_delta numeric := coalesce(new.balance, 0) - coalesce(old.balance, 0);
  held_delta numeric := coalesce(new.held_balance, 0) - coalesce(old.held_balance, 0);
begin
  if balance_delta <> 0 or held_delta <> 0 then
    perform derived_rollup_points(balance_delta, held_delta);
  end if;
  if tg_op <> 'UPDATE' or old.client_id is distinct from new.client_id then
    perform derived_count_account(old.client_id, new.client_id);
  end if;
  return null;
end $$;

create trigger derived_accounts_insert after insert on accounts
  for each row execute function derived_accounts_changed();
create trigger derived_accounts_update after update of client_id, balance, held_balance on accounts
  for each row when ((old.client_id, old.balance, old.held_balance)
    is distinct from (new.client_id, new.balance, new.held_balance))
  execute function derived_accounts_changed();
create trigger derived_accounts_delete after delete on accounts
  for each row execute function derived_accounts_changed();

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
