import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import { centsText, parseCents } from '../../lib/money';

export type FlowKind = 'earned' | 'redeemed' | 'returned' | 'expired' | 'adjusted';

/** One day's signed sum of one flow kind (numeric as text). */
export interface FlowCell {
  bucket: Date;
  kind: FlowKind;
  points: string;
}

export interface FlowWindow {
  /** Start of the first day (inclusive). */
  start: Date;
  /** End of the last day (exclusive). */
  end: Date;
  posId?: string;
  /** How the report groups the cells: a source may answer whole months as one cell dated the 1st. */
  groupBy?: 'day' | 'month';
}

/** Σ balances at `start` (or the POS's net flow before it) and every day-kind cell of the window. */
export interface FlowData {
  opening: string;
  cells: FlowCell[];
}

/**
 * Where the report's numbers come from: the rollups (`points_flow_totals`, `points_flow_days`) in
 * production, the raw operations in tests and the benchmark, with the same flow rule (`derived_flow_kind`,
 * db/derived/017-points-flow.sql).
 */
export interface FlowSource {
  read(db: Db, window: FlowWindow): Promise<FlowData>;
}

interface Row {
  bucket: Date | null;
  kind: FlowKind | 'opening';
  points: string;
}

function split(rows: Row[]): FlowData {
  const opening = rows.find((row) => row.kind === 'opening')?.points ?? '0';
  const cells = rows.filter((row): row is FlowCell => row.kind !== 'opening');
  return { opening, cells };
}

/** The first instant of the UTC month `at` is in, or of the next month when `next`. */
function monthStart(at: Date, next = false): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + (next ? 1 : 0), 1));
}

/** The first instant of the first whole UTC month that starts at or after `at`. */
function monthCeil(at: Date): Date {
  const start = monthStart(at);
  return start.getTime() === at.getTime() ? start : monthStart(at, true);
}

/**
 * From the rollups, in one statement (one snapshot: the opening and the cells agree).
 *
 * Programme-wide, from `points_flow_totals` (migration 026): a few rows per day and per month whatever the
 * number of POS. Grouped by month, the whole months inside the window are read as month rows and only the
 * days at its edges as day rows; a month cell is dated its first day, which is inside the window, so the
 * service files it under its month. The opening is Σ balances now (`analytics_points_totals`) less every
 * flow from `start` on: the window's cells, which are read anyway, and what came after the window (whole
 * months as month rows), so the days before `start` are never read.
 *
 * A POS has no balance of its own: its opening is its net flow before `start`, from the per-POS rollup
 * (`points_flow_days_pos_idx`).
 */
export const rollupFlowSource: FlowSource = {
  async read(db, { start, end, posId, groupBy }) {
    if (posId) {
      const { rows } = await sql<Row>`
        select null::timestamptz as bucket, 'opening' as kind, coalesce(sum(points), 0)::text as points
        from points_flow_days
        where pos_id = ${posId}::uuid and bucket < ${start}
        union all
        select bucket, kind, sum(points)::text from points_flow_days
        where pos_id = ${posId}::uuid and bucket >= ${start} and bucket < ${end}
        group by 1, 2`.execute(db);
      return split(rows);
    }
    // Whole months inside [start, end) when grouping by month; an empty range otherwise.
    let [monthsFrom, monthsTo] = [start, start];
    if (groupBy === 'month' && monthCeil(start) < monthStart(end)) {
      [monthsFrom, monthsTo] = [monthCeil(start), monthStart(end)];
    }
    const afterMonths = monthCeil(end);
    const { rows } = await sql<Row | { bucket: null; kind: 'balances' | 'after'; points: string }>`
      select null::timestamptz as bucket, 'balances' as kind, coalesce(sum(balance), 0)::text as points
      from analytics_points_totals
      union all
      select null::timestamptz, 'after', coalesce(sum(points), 0)::text from points_flow_totals
      where (grain = 'day' and bucket >= ${end} and bucket < ${afterMonths})
        or (grain = 'month' and bucket >= ${afterMonths})
      union all
      select bucket, kind, sum(points)::text from points_flow_totals
      where (grain = 'day' and bucket >= ${start} and bucket < ${end}
          and not (bucket >= ${monthsFrom} and bucket < ${monthsTo}))
        or (grain = 'month' and bucket >= ${monthsFrom} and bucket < ${monthsTo})
      group by grain, bucket, kind`.execute(db);
    const cells = rows.filter((row): row is FlowCell => row.bucket !== null);
    const total = (kind: string) =>
      rows.filter((row) => row.kind === kind).reduce((sum, row) => sum + parseCents(row.points), 0n);
    const flows = cells.reduce((sum, cell) => sum + parseCents(cell.points), 0n);
    return { opening: centsText(total('balances') - total('after') - flows), cells };
  },
};

/** Straight from `operations`: what the rollup must equal (the property test and the benchmark's anchor). */
export const referenceFlowSource: FlowSource = {
  async read(db, { start, end, posId }) {
    const pos = posId ? sql`and pos_id = ${posId}::uuid` : sql``;
    const { rows } = await sql<Row>`
      with flows as (
        select created_at, derived_flow_kind(type, status, pos_id) as kind, points from operations
        where derived_flow_kind(type, status, pos_id) is not null ${pos}
      )
      select null::timestamptz as bucket, 'opening' as kind,
        coalesce(sum(points) filter (where created_at < ${start}), 0)::text as points
      from flows
      union all
      select derived_bucket('day', created_at), kind, sum(points)::text from flows
      where created_at >= ${start} and created_at < ${end}
      group by 1, 2`.execute(db);
    return split(rows);
  },
};

/** Σ balances now, from the rollup the dashboard reads. */
export async function outstandingTotal(db: Executor): Promise<string> {
  const { rows } = await sql<{ total: string }>`
    select coalesce(sum(balance), 0)::text as total from analytics_points_totals`.execute(db);
  return rows[0]?.total ?? '0';
}

/** Recomputes the rollup from `operations` (after a bulk load that bypassed the triggers). */
export async function rebuildPointsFlow(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // As the other rebuilds: writers wait, so none falls between this read and the triggers that follow.
    await sql`lock table operations in share mode`.execute(trx);
    await sql`select derived_rebuild_points_flow()`.execute(trx);
  });
}
