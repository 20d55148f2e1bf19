import { sql } from 'kysely';
import type { AnalyticsSource, CountRow, PointsTotalsRow, VolumeRow } from './analytics.repository';

/**
 * The definition of every analytics number, straight from the raw tables. Too slow for a dashboard at
 * millions of rows; it is the reference the rollups are tested and benchmarked against.
 */
export const referenceSource: AnalyticsSource = {
  async operations(db, { groupBy, start, end }) {
    const { rows } = await sql<VolumeRow>`
      select date_trunc(${groupBy}, created_at, 'UTC') as bucket,
             count(*)::int8 as count, sum(abs(points)) as amount
      from operations
      where status = 'completed' and created_at >= ${start} and created_at < ${end}
      group by 1`.execute(db);
    return rows;
  },

  async issuedCards(db, { groupBy, start, end }) {
    const { rows } = await sql<CountRow>`
      select date_trunc(${groupBy}, coalesce(issued_at, created_at), 'UTC') as bucket,
             count(*)::int8 as count
      from cards
      where coalesce(issued_at, created_at) >= ${start} and coalesce(issued_at, created_at) < ${end}
      group by 1`.execute(db);
    return rows;
  },

  async activeAccounts(db, { groupBy, start, end }) {
    const { rows } = await sql<CountRow>`
      select date_trunc(${groupBy}, created_at, 'UTC') as bucket,
             count(distinct account_id)::int8 as count
      from operations
      where status = 'completed' and account_id is not null
        and created_at >= ${start} and created_at < ${end}
      group by 1`.execute(db);
    return rows;
  },

  async pointsTotals(db) {
    const { rows } = await sql<PointsTotalsRow>`
      select coalesce(sum(balance), 0) as total, coalesce(sum(held_balance), 0) as held,
             now() as "calculatedAt"
      from accounts`.execute(db);
    return rows[0]!;
  },
};
