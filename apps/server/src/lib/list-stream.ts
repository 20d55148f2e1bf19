import {
  type ControlledTransaction,
  type Expression,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { Db } from '../db/connection';
import { isEmbedded } from '../db/pglite-dialect';
import type { Database } from '../db/schema';
import { type ListOrder, orderList } from './list-page';
import { streamRanked } from './list-stream-embedded';
import { Slots } from './slots';

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

/**
 * Exports reading from one snapshot at once on a server (each holds a pooled connection while its client reads;
 * the pool has 10). A further export waits for a free one before its first row.
 */
const SNAPSHOT_EXPORTS = 2;
const snapshotSlots = new Slots(SNAPSHOT_EXPORTS);

interface SortKey {
  _export_sort: string | null;
  _export_tie: string;
}

/**
 * A snapshot download whose client takes no row for this long gives its transaction, pooled connection and slot
 * back; the file is then cut. PostgreSQL's idle limit would end the transaction, but not free the slot or the
 * pooled client, which a client that stays connected without reading kept for good.
 */
export const SNAPSHOT_STALL_MS = 60_000;

export interface StreamOptions {
  /** Rows per round trip (tests use small ones to cross batch boundaries). */
  batchSize?: number;
  /** How long a snapshot download may go without its client taking a row (`SNAPSHOT_STALL_MS`). */
  stallMs?: number;
  /**
   * The database to read every batch from one snapshot of (on PGlite, to rank the file's rows in when it
   * begins; see `streamList`). Absent when the source's query already runs inside a transaction.
   */
  snapshot?: Db;
}

/**
 * Every row of a list, in the list's order, a bounded batch at a time: a keyset walk (each batch starts after
 * the last row of the previous one), so memory stays flat and each batch is an index range, however deep.
 * The keys travel as text, which keeps a timestamp's microseconds (a JavaScript Date would drop them).
 *
 * With `snapshot` on a PostgreSQL server, every batch reads the same snapshot (one READ ONLY, REPEATABLE READ
 * transaction for the download): batch by batch, a row whose sort key changed while the file was read (an
 * account's balance at every till write, a key's last use) crossed the walk's position and was missed or
 * listed twice. That transaction holds a pooled connection while its client reads, so few run at once
 * (`SNAPSHOT_EXPORTS`); a client that takes no row for a minute (`SNAPSHOT_STALL_MS`) gets them back and its
 * download cut. On PGlite (one connection for every request) holding it for a download would stop every other
 * request: there the file's rows and order are fixed by one statement when it begins (`streamRanked`), and
 * each batch reads the rows of its ranks as they are then.
 */
export async function* streamList<DB, TB extends keyof DB, O, W>(
  source: ListSource<DB, TB, O, W>,
  options: StreamOptions = {},
): AsyncGenerator<W> {
  const { snapshot, stallMs = SNAPSHOT_STALL_MS, batchSize = EXPORT_BATCH_ROWS } = options;
  if (!snapshot) {
    yield* walk(source, batchSize, (query) => query.execute());
    return;
  }
  if (isEmbedded(snapshot)) {
    yield* streamRanked(snapshot, source, batchSize);
    return;
  }
  const release = await snapshotSlots.acquire();
  let trx: ControlledTransaction<Database> | undefined;
  let watch: NodeJS.Timeout | undefined;
  let ended = false;
  // Once: when the file is done, when its client went away (the reply's pipeline ends this generator), or when
  // its client stopped taking rows (the watch below; the generator then waits at a row nobody pulls).
  const end = async () => {
    if (ended) return;
    ended = true;
    clearInterval(watch);
    // Read only: a rollback ends it as a commit would.
    await trx
      ?.rollback()
      .execute()
      .catch(() => undefined);
    release();
  };
  try {
    const open = await snapshot
      .startTransaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute();
    trx = open;
    let pulled = Date.now();
    watch = setInterval(
      () => {
        if (Date.now() - pulled > stallMs) void end();
      },
      Math.min(stallMs, 5000),
    );
    watch.unref();
    // The source's query was built on the pool: compiled, it runs on the transaction's connection.
    const batches = walk(source, batchSize, async (query) => {
      if (ended)
        throw new Error(`export stalled: no row taken for ${stallMs} ms, its snapshot was given back`);
      return (await open.executeQuery(query.compile())).rows;
    });
    for await (const item of batches) {
      yield item;
      pulled = Date.now();
    }
  } finally {
    await end();
  }
}

async function* walk<DB, TB extends keyof DB, O, W>(
  source: ListSource<DB, TB, O, W>,
  batchSize = EXPORT_BATCH_ROWS,
  run: (query: SelectQueryBuilder<DB, TB, O & SortKey>) => Promise<(O & SortKey)[]>,
): AsyncGenerator<W> {
  const { order } = source;
  const keyed = source.query.select([
    sql<string | null>`(${sql.ref(order.column)})::text`.as('_export_sort'),
    sql<string>`(${sql.ref(order.tiebreak.column)})::text`.as('_export_tie'),
  ]) as unknown as SelectQueryBuilder<DB, TB, O & SortKey>;
  let after: SortKey | undefined;
  for (;;) {
    const query = after ? keyed.where(keysetAfter(order, after)) : keyed;
    const rows = await run(orderList(query, order).limit(batchSize));
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
