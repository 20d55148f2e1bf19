import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type ListOrder, orderList } from './list-page';

/**
 * What a list hands to its export: its filtered query with the columns selected (no order, no limit), its
 * order, and its row → wire mapping (per batch, so a mapping that looks rows up does it once per batch).
 */
export interface ListSource<DB, TB extends keyof DB, O, W> {
  query: SelectQueryBuilder<DB, TB, O>;
  order: ListOrder;
  toWire: (rows: O[]) => W[] | Promise<W[]>;
}

export function listSource<DB, TB extends keyof DB, O, W>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: ListOrder,
  toWire: (rows: O[]) => W[] | Promise<W[]>,
): ListSource<DB, TB, O, W> {
  return { query, order, toWire };
}

/** Rows per round trip: bounds the server's memory whatever the size of the list. */
export const EXPORT_BATCH_ROWS = 1000;

interface SortKey {
  _export_sort: string | null;
  _export_tie: string;
}

/**
 * Every row of a list, in the list's order, a bounded batch at a time: a keyset walk (each batch starts after
 * the last row of the previous one), so memory stays flat and each batch is an index range, however deep.
 * Not one long cursor: PGlite has one connection, which a cursor's transaction would hold for the whole
 * download (every other request waiting), and a slow reader would hold a pooled connection on PostgreSQL.
 * The keys travel as text, which keeps a timestamp's microseconds (a JavaScript Date would drop them).
 */
export async function* streamList<DB, TB extends keyof DB, O, W>(
  source: ListSource<DB, TB, O, W>,
  batchSize = EXPORT_BATCH_ROWS,
): AsyncGenerator<W> {
  const { order } = source;
  const keyed = source.query.select([
    sql<string | null>`(${sql.ref(order.column)})::text`.as('_export_sort'),
    sql<string>`(${sql.ref(order.tiebreak.column)})::text`.as('_export_tie'),
  ]) as unknown as SelectQueryBuilder<DB, TB, O & SortKey>;
  let after: SortKey | undefined;
  for (;;) {
    const query = after ? keyed.where(keysetAfter(order, after)) : keyed;
    const rows = await orderList(query, order).limit(batchSize).execute();
    for (const item of await source.toWire(rows)) yield item;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1];
  }
}

/** The rows that come after `last` in `order` (nulls placed as `orderList` places them). */
function keysetAfter(order: ListOrder, last: SortKey): Expression<SqlBool> {
  const column = sql.ref(order.column);
  const tie = sql.ref(order.tiebreak.column);
  const { _export_sort: value, _export_tie: tieValue } = last;
  const nullsFirst = (order.nulls === 'ends') === (order.direction === 'asc');
  const tieAfter = order.tiebreak.direction === 'asc' ? sql`${tie} > ${tieValue}` : sql`${tie} < ${tieValue}`;
  if (value === null) {
    const amongNulls = sql`(${column} is null and ${tieAfter})`;
    return (nullsFirst ? sql`(${amongNulls} or ${column} is not null)` : amongNulls) as RawBuilder<SqlBool>;
  }
  const beyond = sql.raw(order.direction === 'asc' ? '>' : '<');
  // Both keys one way: a row comparison, which an index on (column, tiebreak) serves as a range.
  const later =
    order.direction === order.tiebreak.direction
      ? sql`(${column}, ${tie}) ${beyond} (${value}, ${tieValue})`
      : sql`(${column} ${beyond} ${value} or (${column} = ${value} and ${tieAfter}))`;
  return (
    order.nullable && !nullsFirst ? sql`(${later} or ${column} is null)` : later
  ) as RawBuilder<SqlBool>;
}
