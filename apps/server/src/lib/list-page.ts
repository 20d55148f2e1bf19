import { type SelectQueryBuilder, sql } from 'kysely';

export type SortDirection = 'asc' | 'desc';

export interface ListPage {
  page: number;
  size: number;
}

export interface ListOrder {
  /** The sorted column (as SQL: `created_at`, `rulesets.version`). */
  column: string;
  direction: SortDirection;
  /**
   * `ends`: empty values first ascending and last descending (what a user expects of a sorted table);
   * `database`: PostgreSQL's default (nulls sort as the largest value).
   */
  nulls: 'ends' | 'database';
  /** A unique column that makes the order total, so pages never overlap or skip a row. */
  tiebreak: { column: string; direction: SortDirection };
}

/**
 * One page of a filtered list and the filter's exact total, in parallel: the list + count + sort of every
 * small admin table (users, POS keys, audit log, rulesets). `rows` is the filtered query with its columns
 * selected; `count` is the same filter without them.
 */
export async function fetchListPage<DB, TB extends keyof DB, O>(
  query: { rows: SelectQueryBuilder<DB, TB, O>; count: SelectQueryBuilder<DB, TB, object> },
  order: ListOrder,
  page: ListPage,
): Promise<{ rows: O[]; total: number }> {
  const { column, direction, nulls, tiebreak } = order;
  const [rows, count] = await Promise.all([
    query.rows
      .orderBy(sql.ref(column), (ob) => {
        if (nulls === 'database') return direction === 'asc' ? ob.asc() : ob.desc();
        return direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast();
      })
      .orderBy(sql.ref(tiebreak.column), tiebreak.direction)
      .limit(page.size)
      .offset(page.page * page.size)
      .execute(),
    query.count.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: (count as { total: number }).total };
}
