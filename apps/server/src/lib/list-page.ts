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
  /** The sorted column can be null (an export's keyset must then step over the empty values too). */
  nullable?: boolean;
}

/** The list's order, one definition for its pages and its export (`list-stream.ts`). */
export function orderList<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: ListOrder,
): SelectQueryBuilder<DB, TB, O> {
  const { column, direction, nulls, tiebreak } = order;
  return query
    .orderBy(sql.ref(column), (ob) => {
      if (nulls === 'database') return direction === 'asc' ? ob.asc() : ob.desc();
      return direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast();
    })
    .orderBy(sql.ref(tiebreak.column), tiebreak.direction);
}

/**
 * One page of a filtered list and the filter's exact total, in parallel: the list + count + sort of every
 * small admin table (users, POS keys, audit log, rulesets). `rows` is the filtered query with its columns
 * selected; `count` is the same filter without them, or how to get the exact total otherwise (a counter).
 * `countFirst`: the total first, and no page query when the page is past it — on a large table a filter
 * that finds nothing (more) walked the whole sort index looking for its page (the audit log).
 */
export async function fetchListPage<DB, TB extends keyof DB, O>(
  query: {
    rows: SelectQueryBuilder<DB, TB, O>;
    count: SelectQueryBuilder<DB, TB, object> | (() => Promise<number>);
  },
  order: ListOrder,
  page: ListPage,
  { countFirst = false }: { countFirst?: boolean } = {},
): Promise<{ rows: O[]; total: number }> {
  const { count } = query;
  const rowsOfPage = () =>
    orderList(query.rows, order)
      .limit(page.size)
      .offset(page.page * page.size)
      .execute();
  const exactTotal = () =>
    typeof count === 'function'
      ? count()
      : count
          .select(sql<number>`count(*)`.as('total'))
          .executeTakeFirstOrThrow()
          .then((row) => (row as { total: number }).total);
  if (!countFirst) {
    const [rows, total] = await Promise.all([rowsOfPage(), exactTotal()]);
    return { rows, total };
  }
  const total = await exactTotal();
  return { total, rows: total > page.page * page.size ? await rowsOfPage() : [] };
}
