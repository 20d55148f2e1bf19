import { sql } from 'kysely';
import type { Db } from '../../db/connection';

const HOUR_COLUMNS = sql.raw(
  Array.from({ length: 24 }, (_, h) => `coalesce(sum(n) filter (where hour = ${h}), 0)::int`).join(', '),
);

/**
 * Recomputes every analytics rollup from the raw tables, set-based, in one transaction, with the
 * definitions the triggers use (`derived_*` SQL functions, db/DERIVED.md). Used by
 * `npm run rebuild-derived` (db/derived.ts) and after bulk loads that bypass the triggers. Counters are
 * written to shard 0; the triggers then add their own shards.
 *
 * The SHARE locks wait for writers in flight and hold new ones back until the rollups are whole again,
 * so no write can fall between the snapshot read here and the triggers that follow. The account-days
 * table (about one row per completed operation) gets its primary key rebuilt in bulk after the insert,
 * several times faster than millions of random index insertions.
 */
export async function rebuildRollups(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`
      lock table accounts, cards, operations in share mode;
      set local work_mem = '64MB';
      set local maintenance_work_mem = '512MB';
      truncate analytics_hourly, analytics_account_days, analytics_points_totals;
      alter table analytics_account_days drop constraint analytics_account_days_pkey;
    `.execute(trx);

    await sql`
      insert into analytics_account_days (bucket, account_id, operations, hour_operations)
        select day, account_id, sum(n), array[${HOUR_COLUMNS}]
        from (
          select derived_bucket('day', created_at) as day, account_id,
                 derived_hour_of_day(created_at) as hour, count(*) as n
          from operations where derived_is_member_activity(type, status) and account_id is not null
          group by 1, 2, 3
        ) per_hour
        group by 1, 2
    `.execute(trx);

    await sql`
      alter table analytics_account_days add primary key (bucket, account_id);

      -- A day's distinct accounts are credited to its first hour; triggers credit the hour they ran for.
      insert into analytics_hourly (bucket, shard, operations, volume, active_accounts, day_accounts, issued_cards)
        select bucket, 0, sum(operations), sum(volume), sum(active_accounts), sum(day_accounts), sum(issued_cards)
        from (
          select derived_bucket('hour', created_at) as bucket, count(*) as operations,
                 sum(derived_volume(points)) as volume,
                 count(distinct account_id) filter (where derived_is_member_activity(type, status))
                   as active_accounts,
                 0 as day_accounts, 0 as issued_cards
          from operations where derived_is_activity(status) group by 1
          union all
          select bucket, 0, 0, 0, count(*), 0 from analytics_account_days group by 1
          union all
          select derived_bucket('hour', derived_card_issued_at(issued_at, created_at)), 0, 0, 0, 0, count(*)
          from cards group by 1
        ) parts
        group by 1;

      insert into analytics_points_totals (shard, balance, held_balance)
        select 0, coalesce(sum(balance), 0), coalesce(sum(held_balance), 0) from accounts;
    `.execute(trx);
  });
}
