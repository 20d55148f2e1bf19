import { type Kysely, sql } from 'kysely';

/**
 * Analytics rollups, kept exact by row-level triggers in the transaction of every write, whatever code
 * path made it (POS, admin, seed). `rebuildRollups` (modules/analytics/rollups.repository.ts) recomputes
 * them from the raw tables after a bulk load.
 *
 * - `analytics_hourly`: per UTC hour, completed operations, their volume (Σ |points|), distinct active
 *   accounts and issued cards, plus `day_accounts`: the hour's contribution to its day's distinct active
 *   accounts (+1 where an account's first completed operation of the day was counted, −1 where its last
 *   was uncounted). Counts, volume and cards are additive, so a day is the sum of its hours, and so is
 *   the day's number of distinct accounts when summed over `day_accounts`: an operation write touches a
 *   single counter row.
 * - Counter rows are sharded by the writing backend (`pg_backend_pid() % 64`): concurrent transactions
 *   add to different rows, so no writer waits for another's commit on a hot row, and a reader sums only
 *   the shards that were written. A shard may go negative (a row counted by one backend and uncounted
 *   by another); only the sum has a meaning. The rebuild writes shard 0.
 * - `analytics_account_days`: which accounts were active on a day, with their number of completed
 *   operations that day and per hour (`hour_operations[1..24]`). A counter moves only when the day's
 *   or the hour's number goes 0 → 1 or 1 → 0. The upsert locks the account's row, so a concurrent
 *   "last operation uncounted" and "first operation counted" see each other: no double or lost count.
 * - `analytics_points_totals`: Σ balance and Σ held balance, moved by deltas on every account change.
 * - Buckets are UTC (`date_trunc(…, 'UTC')`) whatever the session time zone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function analytics_writer_shard() returns smallint language sql volatile
      as $$ select (pg_backend_pid() % 64)::smallint $$;

    create table analytics_hourly (
      bucket timestamptz not null,
      shard smallint not null,
      operations bigint not null default 0,
      volume numeric(20, 2) not null default 0,
      active_accounts bigint not null default 0,
      day_accounts bigint not null default 0,
      issued_cards bigint not null default 0,
      primary key (bucket, shard)
    ) with (fillfactor = 70);

    create table analytics_account_days (
      bucket timestamptz not null,
      account_id uuid not null,
      operations integer not null,
      hour_operations integer[] not null,
      primary key (bucket, account_id)
    );

    create table analytics_points_totals (
      shard smallint primary key,
      balance numeric(20, 2) not null,
      held_balance numeric(20, 2) not null
    ) with (fillfactor = 50);
  `.execute(db);

  await sql`
    -- Counts (sign = 1) or uncounts (sign = -1) one completed operation. It runs inside every accrual's
    -- transaction, so it does as few statements as it can: one upsert and one update.
    create function analytics_count_operation(account uuid, at timestamptz, points numeric, sign integer)
      returns void language plpgsql as $$
    declare
      hour_bucket timestamptz := date_trunc('hour', at, 'UTC');
      day_bucket timestamptz := date_trunc('day', at, 'UTC');
      hour_index integer := extract(hour from at at time zone 'UTC')::integer + 1;
      writer_shard smallint := analytics_writer_shard();
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

      -- UPDATE first: the row of this hour and backend nearly always exists, and a plain update is
      -- cheaper than an upsert (no separate row-lock record in the WAL). The upsert covers the first write.
      update analytics_hourly
        set operations = operations + sign, volume = volume + sign * abs(points),
            active_accounts = active_accounts + new_hour, day_accounts = day_accounts + new_day
        where bucket = hour_bucket and shard = writer_shard;
      if not found then
        insert into analytics_hourly as r (bucket, shard, operations, volume, active_accounts, day_accounts)
          values (hour_bucket, writer_shard, sign, sign * abs(points), new_hour, new_day)
          on conflict (bucket, shard) do update set
            operations = r.operations + excluded.operations,
            volume = r.volume + excluded.volume,
            active_accounts = r.active_accounts + excluded.active_accounts,
            day_accounts = r.day_accounts + excluded.day_accounts;
      end if;
    end $$;

    create function analytics_operations_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.status = 'completed' then
        perform analytics_count_operation(old.account_id, old.created_at, old.points, -1);
      end if;
      if tg_op <> 'DELETE' and new.status = 'completed' then
        perform analytics_count_operation(new.account_id, new.created_at, new.points, 1);
      end if;
      return null;
    end $$;

    create trigger analytics_operations_insert after insert on operations
      for each row when (new.status = 'completed') execute function analytics_operations_changed();
    create trigger analytics_operations_update
      after update of status, points, created_at, account_id on operations
      for each row when ((old.status = 'completed' or new.status = 'completed')
        and (old.status, old.points, old.created_at, old.account_id)
          is distinct from (new.status, new.points, new.created_at, new.account_id))
      execute function analytics_operations_changed();
    create trigger analytics_operations_delete after delete on operations
      for each row when (old.status = 'completed') execute function analytics_operations_changed();
  `.execute(db);

  await sql`
    create function analytics_count_card(at timestamptz, sign integer) returns void language plpgsql as $$
    begin
      insert into analytics_hourly as r (bucket, shard, issued_cards)
        values (date_trunc('hour', at, 'UTC'), analytics_writer_shard(), sign)
        on conflict (bucket, shard) do update set issued_cards = r.issued_cards + excluded.issued_cards;
    end $$;

    create function analytics_cards_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        perform analytics_count_card(coalesce(old.issued_at, old.created_at), -1);
      end if;
      if tg_op <> 'DELETE' then
        perform analytics_count_card(coalesce(new.issued_at, new.created_at), 1);
      end if;
      return null;
    end $$;

    create trigger analytics_cards_insert after insert on cards
      for each row execute function analytics_cards_changed();
    create trigger analytics_cards_update after update of issued_at, created_at on cards
      for each row when (coalesce(old.issued_at, old.created_at) is distinct from coalesce(new.issued_at, new.created_at))
      execute function analytics_cards_changed();
    create trigger analytics_cards_delete after delete on cards
      for each row execute function analytics_cards_changed();

    -- One change of the difference, whatever the event.
    create function analytics_accounts_changed() returns trigger language plpgsql as $$
    declare
      balance_delta numeric := 0;
      held_delta numeric := 0;
      writer_shard smallint := analytics_writer_shard();
    begin
      if tg_op <> 'DELETE' then
        balance_delta := new.balance;
        held_delta := new.held_balance;
      end if;
      if tg_op <> 'INSERT' then
        balance_delta := balance_delta - old.balance;
        held_delta := held_delta - old.held_balance;
      end if;
      update analytics_points_totals
        set balance = balance + balance_delta, held_balance = held_balance + held_delta
        where shard = writer_shard;
      if not found then
        insert into analytics_points_totals as t values (writer_shard, balance_delta, held_delta)
          on conflict (shard) do update
            set balance = t.balance + excluded.balance, held_balance = t.held_balance + excluded.held_balance;
      end if;
      return null;
    end $$;

    create trigger analytics_accounts_insert after insert on accounts
      for each row when (new.balance <> 0 or new.held_balance <> 0)
      execute function analytics_accounts_changed();
    create trigger analytics_accounts_update after update of balance, held_balance on accounts
      for each row when ((old.balance, old.held_balance) is distinct from (new.balance, new.held_balance))
      execute function analytics_accounts_changed();
    create trigger analytics_accounts_delete after delete on accounts
      for each row when (old.balance <> 0 or old.held_balance <> 0)
      execute function analytics_accounts_changed();

    -- TRUNCATE fires no row triggers; it empties what depends on the emptied table.
    create function analytics_truncated() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'operations' then
        delete from analytics_account_days;
        update analytics_hourly set operations = 0, volume = 0, active_accounts = 0, day_accounts = 0;
      elsif tg_table_name = 'cards' then
        update analytics_hourly set issued_cards = 0;
      else
        delete from analytics_points_totals;
      end if;
      return null;
    end $$;
    create trigger analytics_operations_truncate after truncate on operations
      for each statement execute function analytics_truncated();
    create trigger analytics_cards_truncate after truncate on cards
      for each statement execute function analytics_truncated();
    create trigger analytics_accounts_truncate after truncate on accounts
      for each statement execute function analytics_truncated();
  `.execute(db);
}
