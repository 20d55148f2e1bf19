import { randomUUID } from 'node:crypto';
import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connection';
import { orderList } from './list-page';
import type { ListSource } from './list-stream';

/**
 * Every row of a list on PGlite, as the list stood when the download began, a bounded batch at a time, without
 * holding PGlite's one connection between batches (every other request would wait for the download).
 *
 * One statement at the start ranks the matching rows' tie-break keys in the list's order into a temporary table
 * (the row set and order of the file, fixed at once); each batch then reads the rows of the next range of
 * ranks through the source's own query, so its filter and columns stay the list's. A row whose sort key changes
 * mid-file keeps its rank: listed once, where it stood. A row deleted, or no longer matching the filter, by the
 * time its batch is read is left out. Node holds one batch; the ranks stay in the database.
 *
 * PGlite has one session for every request, so its temporary tables are seen by all of them: each download's
 * has a name of its own, and is dropped when the file ends, fails or its client goes away (the reply's pipeline
 * ends this generator). Left behind (the process died), it goes with the session.
 */
export async function* streamRanked<DB, TB extends keyof DB, O, W>(
  db: Db,
  source: ListSource<DB, TB, O, W>,
  batchSize: number,
): AsyncGenerator<W> {
  const { order } = source;
  const tie = sql.ref(order.tiebreak.column);
  // Random: another download, or a test file's before it on the same engine, may hold a table right now.
  const table = sql.table(`list_export_${randomUUID().replaceAll('-', '')}`);
  // The window orders as the list's pages do (orderList only adds `order by` items, which a window takes too).
  const ranks = source.query.clearSelect().select((eb) => [
    tie.as('_export_tie'),
    eb.fn
      .agg<string>('row_number')
      .over((over) => orderList(over as unknown as typeof source.query, order) as unknown as typeof over)
      .as('_export_n'),
  ]);
  try {
    await sql`create temp table ${table} as ${ranks}`.execute(db);
    await sql`create unique index on ${table} (_export_n)`.execute(db);
    // Its row count (PGlite's driver does not report a create's).
    const counted = await sql<{ n: string | null }>`select max(_export_n) as n from ${table}`.execute(db);
    const total = Number(counted.rows[0]?.n ?? 0);
    const ranked = source.query.innerJoin(sql`${table}`.as('_export_rank') as never, (join) =>
      join.on(sql<SqlBool>`_export_rank._export_tie = ${tie}`),
    ) as unknown as SelectQueryBuilder<DB, TB, O>;
    for (let from = 0; from < total; from += batchSize) {
      const rows = await ranked
        .where(
          sql<SqlBool>`_export_rank._export_n > ${from} and _export_rank._export_n <= ${from + batchSize}`,
        )
        .orderBy(sql`_export_rank._export_n`)
        .execute();
      for (const item of await source.toWire(rows)) yield item;
    }
  } finally {
    // Also when the create failed (nothing to drop then); a failed drop leaves the table to the session's end.
    await sql`drop table if exists ${table}`.execute(db).catch(() => undefined);
  }
}
