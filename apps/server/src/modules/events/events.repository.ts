import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { toIso } from '../../lib/paging';
import { streamHasNotReached } from './streams.sql';

export interface NewEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * The outbox as CTE steps of a write's statement (`ev`): the events `events` selects (columns
 * `type` and `data`), committed or rolled back with the change that caused them. Endpoints read them as a
 * stream afterwards (`streams.repository.ts`), so a write pays for no delivery of its own; only the test
 * event (`onlyEndpoint`) is queued here as a delivery row for that one endpoint, whatever its subscriptions.
 */
export function eventSteps(events: RawBuilder<unknown>, onlyEndpoint?: string): RawBuilder<unknown> {
  const queued = onlyEndpoint
    ? sql`,
    ev_d as (
      insert into webhook_deliveries (endpoint_id, event_id) select ${onlyEndpoint}::uuid, ev.id from ev
    )`
    : sql``;
  return sql`ev as (
      insert into events (type, data) select t.type, t.data from (${events}) as t
      returning id, type
    )${queued}`;
}

/** Writes events into the outbox (`eventSteps`), in a statement of their own. */
export async function insertEvents(trx: Tx, events: NewEvent[], onlyEndpoint?: string): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = sql`select t.type, t.data from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as t(type text, data jsonb)`;
  const result = await sql<{ id: number }>`
    with ${eventSteps(rows, onlyEndpoint)}
    select id from ev order by id`.execute(trx);
  return result.rows.map((r) => Number(r.id));
}

/** The uuid of the operation a POS wrote under its operationId. */
export async function operationUuid(trx: Tx, operationId: string): Promise<string | undefined> {
  const result = await sql<{ id: string }>`
    select id from operations where operation_id = ${operationId}`.execute(trx);
  return result.rows[0]?.id;
}

export interface EventRow {
  id: number;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

export function toEvent(row: EventRow) {
  return { id: String(row.id), type: row.type, createdAt: toIso(row.created_at) as string, data: row.data };
}

/**
 * An event as a webhook's body: `toEvent`'s JSON, with the data spliced in as PostgreSQL wrote it
 * (`data::text`), not parsed and written again for every attempt.
 */
export function eventBody(row: Omit<EventRow, 'data'> & { data: string }): string {
  const { id, type, createdAt } = toEvent({ ...row, data: {} });
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"createdAt":${JSON.stringify(createdAt)},"data":${row.data}}`;
}

export interface FeedFilter {
  after?: string;
  limit: number;
  types?: string[];
}

/** How many events after the cursor one page of a feed filtered by type reads at most. */
export const FEED_SCAN_WINDOW = 10_000;

export interface FeedPage {
  events: EventRow[];
  /** Filtered by type: the id of the last event the page read, whether it matched or not (null: none read). */
  scannedTo: string | null;
}

/**
 * The feed in a stable order that a later commit can never go back before. An id is drawn at insert, so
 * a transaction still running may hold a smaller id than one already committed: serving by id would skip
 * it. Rows are ordered by (transaction id, id) instead, and only transactions older than the oldest one
 * still running (`pg_snapshot_xmin`) are served: every such transaction has finished, and every row
 * written from now on belongs to a newer one, so it sorts after the cursor.
 */
export async function listFeed(db: Executor, filter: FeedFilter): Promise<FeedPage> {
  const after = filter.after
    ? sql`and (e.xid, e.id) > (
        coalesce((select c.xid from events c where c.id = ${filter.after}::bigint), '0'::xid8), ${filter.after}::bigint)
        -- A cursor pruned meanwhile: what comes after it by id.
        and (exists (select 1 from events c where c.id = ${filter.after}::bigint) or e.id > ${filter.after}::bigint)`
    : sql``;
  if (!filter.types) {
    const result = await sql<EventRow>`
      select e.id, e.type, e.data, e.created_at from events e
      where e.xid < pg_snapshot_xmin(pg_current_snapshot()) and e.type <> 'webhook.test' ${after}
      order by e.xid, e.id
      limit ${filter.limit}`.execute(db);
    return { events: result.rows, scannedTo: null };
  }
  // Filtered by type: the events after the cursor are read FEED_SCAN_WINDOW at a time (their type is not in
  // events_feed_idx), and the page also says the last one read, so a poller of a rare type moves past the
  // rest instead of reading everything after its last match on every poll. Every event read was committed
  // (below pg_snapshot_xmin), so none can come before the one read last.
  const result = await sql<{
    id: number | null;
    type: string | null;
    data: unknown;
    created_at: Date | null;
    scanned_to: string;
  }>`
    with scanned as (
      select e.id, e.xid, e.type from events e
      where e.xid < pg_snapshot_xmin(pg_current_snapshot()) ${after}
      order by e.xid, e.id
      limit ${FEED_SCAN_WINDOW}
    ),
    matched as (
      select s.id, s.xid from scanned s where s.type in (${sql.join(filter.types)})
      order by s.xid, s.id
      limit ${filter.limit}
    )
    -- One row per match, each saying where the read ended; a single row of nulls when nothing matched.
    select e.id, e.type, e.data, e.created_at, edge.id::text as scanned_to
    from (select l.id from scanned l order by l.xid desc, l.id desc limit 1) edge
    left join matched m on true
    left join events e on e.id = m.id
    order by m.xid, m.id`.execute(db);
  const edge = result.rows[0]?.scanned_to ?? null;
  const events = result.rows.filter((row) => row.id !== null) as EventRow[];
  return { events, scannedTo: edge };
}

/**
 * Retention: events older than `days` go, with their deliveries (the foreign key cascades), once no active
 * endpoint still has to get them: none of its deliveries is pending and every active endpoint that takes
 * the type has read past it. An endpoint far behind keeps its events (never lost; the Webhooks screen shows
 * its backlog); disabling it lets them go, since enabled again it starts from then. Bounded per call, so a
 * large backlog is pruned over several runs.
 */
export async function pruneEvents(db: Executor, days: number, limit = 1000): Promise<number> {
  const result = await sql`
    delete from events where id in (
      select e.id from events e
      where e.created_at < now() - make_interval(days => ${days})
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
        and not exists (
          select 1 from webhook_endpoints w where w.status = 'active' and ${streamHasNotReached})
      order by e.created_at
      limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
