import { sql } from 'kysely';
import type { AnalyticsSource, CountRow, PointsTotalsRow, VolumeRow } from './analytics.repository';

/**
 * The definition of every analytics number, straight from the raw tables, with the definitions the
 * rollups' triggers use (`derived_*` SQL functions, db/DERIVED.md). Too slow for a dashboard at millions
 * of rows; it is the reference the rollups are tested and benchmarked against.
 */
export const referenceSource: AnalyticsSource = {
  async operations(db, { groupBy, start, end }) {
    const { rows } = await sql<VolumeRow>`
      select derived_bucket(${groupBy}, created_at) as bucket,
             count(*)::int8 as count, sum(derived_volume(points)) as amount
      from operations
      where derived_is_activity(status) and created_at >= ${start} and created_at < ${end}
      group by 1`.execute(db);
    return rows;
  },

  async issuedCards(db, { groupBy, start, end }) {
    const { rows } = await sql<CountRow>`
      select derived_bucket(${groupBy}, issued) as bucket, count(*)::int8 as count
      from (select derived_card_issued_at(issued_at, created_at) as issued from cards) c
      where issued >= ${start} and issued < ${end}
      group by 1`.execute(db);
    return rows;
  },

  async activeAccounts(db, { groupBy, start, end }) {
    const { rows } = await sql<CountRow>`
      select derived_bucket(${groupBy}, created_at) as bucket,
             count(distinct account_id)::int8 as count
      from operations
      where derived_is_member_activity(type, status) and account_id is not null
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
