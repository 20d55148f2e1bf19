import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { type AttemptOutcome, statusAfter } from './attempt-outcome';
import { attemptRunning } from './deliveries.repository';
import { streamHasNotReached } from './streams.sql';

/**
 * Each active endpoint reads the outbox as a stream (migration 029): its position is the last event, in
 * the feed's order (xid, id), that has been handed over to it, delivered or queued as a delivery row. Only
 * transactions older than every one still running are read (`pg_snapshot_xmin`, as the feed does), so no
 * event can commit behind a position.
 */
const visible = sql`e.xid < pg_snapshot_xmin(pg_current_snapshot())`;

/** A stream a worker has leased: where to send, how many at once, and where it stands. */
export interface ClaimedStream {
  id: string;
  url: string;
  secret_cipher: string;
  event_types: string[];
  stream_xid: string;
  stream_id: number;
  stream_slots: number;
}

/**
 * Leases up to `limit` streams that have events to read, each for `leaseMs` under `token`, with the
 * attempts its endpoint has free: `perEndpoint` less its delivery rows in flight (`claimDeliveries` counts
 * a leased stream's slots the same way), so one slow receiver cannot take every slot. `FOR UPDATE SKIP
 * LOCKED`: any number of servers share the endpoints; a lease that runs out (its server died) is taken by
 * the next claim, which reads again from the position the dead one never moved. The streams furthest behind
 * come first, and only those with a free slot count against `limit`: with more busy endpoints than a server
 * takes at once, each gets its turn (before, a crashed server's stream and whichever endpoints sorted last
 * could wait as long as the others had events).
 */
export async function claimStreams(
  db: Executor,
  options: { limit: number; perEndpoint: number; leaseMs: number; token: string },
): Promise<ClaimedStream[]> {
  const result = await sql<ClaimedStream>`
    with candidates as (
      select w.id, f.slots
      from webhook_endpoints w
      cross join lateral (select ${options.perEndpoint} - count(*) as slots from webhook_deliveries
        where endpoint_id = w.id and ${attemptRunning}) f
      where w.status = 'active' and (w.stream_lease_until is null or w.stream_lease_until <= now())
        and f.slots > 0
        and exists (select 1 from events e where (e.xid, e.id) > (w.stream_xid, w.stream_id) and ${visible})
      order by w.stream_xid, w.stream_id
      limit ${options.limit}
      for update of w skip locked
    )
    update webhook_endpoints w
    set stream_lease = ${options.token}::uuid,
      stream_lease_until = now() + make_interval(secs => ${options.leaseMs / 1000}),
      stream_slots = c.slots
    from candidates c
    where w.id = c.id
    returning w.id, w.url, w.secret_cipher, w.event_types, w.stream_xid::text as stream_xid, w.stream_id,
      w.stream_slots`.execute(db);
  return result.rows.map((row) => ({ ...row, stream_id: Number(row.stream_id) }));
}

export interface StreamEvent {
  id: number;
  xid: string;
  type: string;
  /** As JSON text, only for the types the endpoint takes (the others are passed over, not sent). */
  data: string | null;
  created_at: Date;
  /** The event's own random id (migration 047), its deliveries' `webhook-id` (`webhookMessageId`). */
  message_id: string;
  /**
   * What the event is about, for its order among the endpoint's deliveries (`deliverStream`): its account,
   * or, for what has none, its card; null (no order to keep) for a type the endpoint does not take, or one
   * about neither.
   */
  subject: string | null;
  /**
   * The endpoint already has a delivery of it: attempted by an earlier batch that stopped its position
   * before it (a batch keeps an account's order by ending at the first event it did not get to), so it is
   * not sent again.
   */
  delivered: boolean;
}

/**
 * An event's subject (`StreamEvent.subject`): an operation's and a card's `accountId`, an account event's
 * `id`; an operation without an account by its card number, a card by its number.
 */
const subject = sql`coalesce(e.data ->> 'accountId',
  case when e.type like 'account.%' then e.data ->> 'id' end,
  e.data ->> 'cardNumber',
  case when e.type like 'card.%' then e.data ->> 'number' end)`;

/** The next `limit` events after a position, in feed order, with the data of `types` only. */
async function readAfter(
  db: Executor,
  after: {
    xid: RawBuilder<unknown>;
    id: RawBuilder<unknown>;
    types: RawBuilder<unknown>;
    endpoint?: RawBuilder<unknown>;
  },
  limit: number,
): Promise<StreamEvent[]> {
  const taken = sql`e.type = any(${after.types})`;
  // The unique (event_id, endpoint_id) index: one probe per event taken.
  const delivered = after.endpoint
    ? sql`${taken} and exists (select 1 from webhook_deliveries d
        where d.event_id = e.id and d.endpoint_id = ${after.endpoint})`
    : sql`false`;
  const result = await sql<StreamEvent>`
    select e.id, e.xid::text as xid, e.type, e.created_at, e.message_id,
      case when ${taken} then e.data::text end as data,
      case when ${taken} then ${subject} end as subject,
      coalesce(${delivered}, false) as delivered
    from events e
    where (e.xid, e.id) > (${after.xid}, ${after.id}) and ${visible}
    order by e.xid, e.id
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The next `limit` events after the given position (what a stream would read next). */
export function readStream(
  db: Executor,
  stream: Pick<ClaimedStream, 'stream_xid' | 'stream_id' | 'event_types'>,
  limit: number,
): Promise<StreamEvent[]> {
  return readAfter(
    db,
    {
      xid: sql`${stream.stream_xid}::xid8`,
      id: sql`${stream.stream_id}::bigint`,
      types: sql`${stream.event_types}::text[]`,
    },
    limit,
  );
}

/**
 * A leased stream's next `limit` events, from where it stands as this statement reads it (with the types it
 * takes then), and none once the lease is no longer `token`'s or the endpoint is not active. Not from the
 * position of the claim: disabled and enabled again since, the stream starts from then, and the events
 * written in between are not to be sent. One snapshot reads the position and the events: seeing the
 * endpoint active, it sees the position its last enabling set, and no event written while it was disabled.
 */
export function readLeasedStream(
  db: Executor,
  stream: { id: string; token: string },
  limit: number,
): Promise<StreamEvent[]> {
  const held = (column: RawBuilder<unknown>) => sql`(select ${column} from webhook_endpoints
    where id = ${stream.id}::uuid and stream_lease = ${stream.token}::uuid and status = 'active')`;
  return readAfter(
    db,
    // The cast: `any (select …)` would compare with each row, not with the array.
    {
      xid: held(sql`stream_xid`),
      id: held(sql`stream_id`),
      types: sql`${held(sql`event_types`)}::text[]`,
      endpoint: sql`${stream.id}::uuid`,
    },
    limit,
  );
}

/** What became of one event of a stream's batch: an attempt's outcome, or queued for the rows' worker. */
export interface StreamOutcome {
  eventId: number;
  attemptedAt: Date | null;
  outcome: AttemptOutcome | null;
}

/**
 * Moves the stream to `position` and ends its lease, inserting one delivery row per outcome (a failed
 * attempt pending its retry, an event not attempted pending now), in one statement: only while the lease
 * is still `token`'s. A late batch whose lease another worker has taken writes nothing; that worker sends
 * the same events again (at least once), and a row can exist only once per event and endpoint.
 *
 * Only ever forward: an endpoint disabled and enabled again while the batch was sending has its stream
 * moved to then (`updateWebhook`), past the batch's events, and going back would send what was written
 * while it was disabled. The lease is not ended by a change of the endpoint, so the batch's rows are still
 * written: its events were sent, and a failed one is retried (at the endpoint's URL of then).
 */
export async function recordStream(
  db: Executor,
  stream: { id: string; token: string; position: { xid: string; id: number } },
  outcomes: readonly StreamOutcome[],
): Promise<void> {
  const rows = outcomes.map(({ eventId, attemptedAt, outcome }) => ({
    event_id: eventId,
    status: outcome ? statusAfter(outcome) : 'pending',
    attempts: outcome ? 1 : 0,
    retry: outcome ? outcome.retryInSeconds : 0,
    attempted_at: attemptedAt?.toISOString() ?? null,
    response_status: outcome?.responseStatus ?? null,
    last_error: outcome?.error ?? null,
  }));
  const ahead = sql`(${stream.position.xid}::xid8, ${stream.position.id}::bigint) > (stream_xid, stream_id)`;
  await sql`
    with moved as (
      update webhook_endpoints
      set stream_xid = case when ${ahead} then ${stream.position.xid}::xid8 else stream_xid end,
        stream_id = case when ${ahead} then ${stream.position.id}::bigint else stream_id end,
        stream_lease = null, stream_lease_until = null, stream_slots = 0
      where id = ${stream.id}::uuid and stream_lease = ${stream.token}::uuid
      returning id
    )
    insert into webhook_deliveries
      (endpoint_id, event_id, status, attempts, next_attempt_at, last_attempt_at, response_status, last_error)
    select m.id, f.event_id, f.status, f.attempts,
      case when f.status = 'pending' then now() + make_interval(secs => f.retry) end,
      f.attempted_at, f.response_status, f.last_error
    from moved m, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as f(event_id bigint, status text,
      attempts integer, retry double precision, attempted_at timestamptz, response_status integer, last_error text)
    on conflict (event_id, endpoint_id) do nothing`.execute(db);
}

/**
 * What the endpoint aliased `w` in the enclosing query still has to get, as a subquery of one row to join
 * laterally: events of its types that its stream has not reached plus its pending delivery rows due by now
 * (`backlog`), and when the oldest of those events was written (`backlog_since`). No row for a disabled
 * endpoint: its stream does not move, and enabled again it starts from then. Events count whether or not
 * the stream may read them yet (a statement sees committed ones only, and one committed above the
 * snapshot's xmin is waiting too). With `cap`, each part stops at `cap` rows (a range of events_feed_idx in
 * feed order, not the whole backlog) and their sum at `cap` ("at least"); without it the count is exact.
 */
export function endpointBacklog(cap?: number) {
  const capped = cap !== undefined;
  return sql<{ backlog: number; backlog_since: Date | null }>`(
    select ${capped ? sql`least(s.n + r.n, ${cap})` : sql`s.n + r.n`}::int as backlog, s.since as backlog_since
    from (
      select count(*) as n, min(waiting.created_at) as since from (
        select e.created_at from events e
        where ${streamHasNotReached}
        ${capped ? sql`order by e.xid, e.id limit ${cap}` : sql``}
      ) waiting
    ) s, (
      select count(*) as n from (
        select 1 from webhook_deliveries d
        where d.endpoint_id = w.id and d.status = 'pending' and d.next_attempt_at <= now()
        ${capped ? sql`limit ${cap}` : sql``}
      ) due
    ) r
    where w.status = 'active'
  )`;
}

/** Each active endpoint's backlog, counted up to `cap` (`endpointBacklog`): what `/metrics` reports. */
export async function endpointBacklogs(
  db: Executor,
  cap: number,
): Promise<{ id: string; backlog: number }[]> {
  const result = await sql<{ id: string; backlog: number }>`
    select w.id, b.backlog from webhook_endpoints w cross join lateral ${endpointBacklog(cap)} b
    where w.status = 'active'
    order by w.created_at`.execute(db);
  return result.rows;
}

/**
 * What active endpoints (or this one) still have to get (`endpointBacklog`, exact). Zero when delivery has
 * caught up (tests and benchmarks wait on it: a stream reads only transactions older than every running
 * one, anywhere on the server).
 */
export async function deliveryBacklog(db: Executor, endpointId?: string): Promise<number> {
  const only = endpointId ? sql`and w.id = ${endpointId}::uuid` : sql``;
  const result = await sql<{ n: number }>`
    select coalesce(sum(b.backlog), 0)::int as n
    from webhook_endpoints w cross join lateral ${endpointBacklog()} b
    where w.status = 'active' ${only}`.execute(db);
  return Number(result.rows[0]!.n);
}
