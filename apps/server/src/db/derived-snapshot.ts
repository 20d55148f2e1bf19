import { sql } from 'kysely';
import type { Db } from './connection';
import { rebuildDerivedTables } from './derived';
import type { Executor } from './executor';

/**
 * Every derived table by its meaning, for tests that compare what the triggers kept with a rebuild:
 * counters as per-key sums over shards (which backend wrote which shard differs), without the keys that
 * sum to zero (a rebuild writes none); account-days row for row; a day's distinct accounts as the sum of
 * its hours (the rebuild credits them to the day's first hour, a trigger to the hour it ran for).
 */
const queries = {
  operationCounts: sql`select type, status, sum(n)::int8 as n from operation_counts
    group by 1, 2 having sum(n) <> 0 order by 1, 2`,
  operationSearchCounts: sql`select ch, kind, type, status, sum(n)::int8 as n from operation_search_counts
    group by 1, 2, 3, 4 having sum(n) <> 0 order by 1, 2, 3, 4`,
  cardCounts: sql`select status, sum(n)::int8 as n from card_counts group by 1 having sum(n) <> 0 order by 1`,
  accountCounts: sql`select coalesce(sum(n), 0)::int8 as n from account_counts`,
  accountSearchCounts: sql`select gram, sum(n)::int8 as n from account_search_counts
    group by 1 having sum(n) <> 0 order by 1`,
  auditCounts: sql`select target_type, sum(n)::int8 as n from audit_counts
    group by 1 having sum(n) <> 0 order by 1`,
  auditSearchCounts: sql`select gram, target_type, sum(n)::int8 as n from audit_search_counts
    group by 1, 2 having sum(n) <> 0 order by 1, 2`,
  deliveryCounts: sql`select endpoint_id, status, sum(n)::int8 as n from webhook_delivery_counts
    group by 1, 2 having sum(n) <> 0 order by 1, 2`,
  accountDays: sql`select bucket, account_id, operations, hour_operations from analytics_account_days
    order by bucket, account_id`,
  hourly: sql`select bucket, sum(operations)::int8 as o, sum(volume) as v, sum(active_accounts)::int8 as a,
      sum(issued_cards)::int8 as c
    from analytics_hourly group by bucket
    having sum(operations) <> 0 or sum(volume) <> 0 or sum(active_accounts) <> 0 or sum(issued_cards) <> 0
    order by bucket`,
  dailyAccounts: sql`select date_trunc('day', bucket, 'UTC') as day, sum(day_accounts)::int8 as a
    from analytics_hourly group by 1 having sum(day_accounts) <> 0 order by 1`,
  pointsTotals: sql`select coalesce(sum(balance), 0)::numeric(20, 2)::text as b,
      coalesce(sum(held_balance), 0)::numeric(20, 2)::text as h
    from analytics_points_totals`,
  pointsFlow: sql`select bucket, kind, pos_id, sum(points)::numeric(20, 2)::text as p from points_flow_days
    group by 1, 2, 3 having sum(points) <> 0 order by 1, 2, 3 nulls first`,
  pointsFlowTotals: sql`select grain, bucket, kind, sum(points)::numeric(20, 2)::text as p
    from points_flow_totals group by 1, 2, 3 having sum(points) <> 0 order by 1, 2, 3`,
};

/** Tables a later migration adds: a database built as it was before it (migration tests) has none. */
const addedLater: Partial<Record<keyof typeof queries, string>> = {
  pointsFlow: 'points_flow_days',
  pointsFlowTotals: 'points_flow_totals',
  auditCounts: 'audit_counts',
  auditSearchCounts: 'audit_search_counts',
  deliveryCounts: 'webhook_delivery_counts',
};

export async function derivedSnapshot(db: Executor): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [name, query] of Object.entries(queries)) {
    const table = addedLater[name as keyof typeof queries];
    if (table) {
      const { rows } = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(db);
      if (!rows[0]?.t) continue;
    }
    const { rows } = await query.execute(db);
    out[name] = rows.map((row) => JSON.stringify(row));
  }
  return out;
}

/** What the triggers kept, then the same after a rebuild from the raw tables: equal when they agree. */
export async function snapshotAndRebuild(
  db: Db,
): Promise<{ kept: Record<string, string[]>; rebuilt: Record<string, string[]> }> {
  const kept = await derivedSnapshot(db);
  await rebuildDerivedTables(db);
  return { kept, rebuilt: await derivedSnapshot(db) };
}
