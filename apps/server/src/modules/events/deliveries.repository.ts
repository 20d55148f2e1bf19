import type { Delivery, DeliveryStatus } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import { inTransaction } from '../../db/transaction';
import { listSource } from '../../lib/list-stream';
import { toIso } from '../../lib/paging';
import { type AttemptOutcome, statusAfter } from './attempt-outcome';
import { type EventRow, toEvent } from './events.repository';

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  claimed_until: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  last_error: string | null;
  created_at: Date;
  event_id: number;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
}

function toDelivery(row: DeliveryRow): Delivery {
  const payload = toEvent({
    id: row.event_id,
    type: row.event_type,
    data: row.event_data,
    created_at: row.event_created_at,
  } satisfies EventRow);
  return {
    id: row.id,
    webhookId: row.endpoint_id,
    eventId: payload.id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    // While an attempt runs, next_attempt_at is its lease, not a retry: shown as due when it ends.
    nextAttemptAt: row.status === 'pending' ? toIso(row.next_attempt_at) : null,
    lastAttemptAt: toIso(row.last_attempt_at),
    responseStatus: row.response_status,
    lastError: row.last_error,
    createdAt: toIso(row.created_at) as string,
    payload,
  };
}

const columns = sql`d.id, d.endpoint_id, d.status, d.attempts, d.next_attempt_at, d.claimed_until,
  d.last_attempt_at, d.response_status, d.last_error, d.created_at, e.id as event_id, e.type as event_type,
  e.data as event_data, e.created_at as event_created_at`;

export interface DeliveryFilter {
  webhookId: string;
  status?: DeliveryStatus;
  page: number;
  size: number;
  sort?: { field: 'createdAt'; direction: 'asc' | 'desc' } | undefined;
}

/**
 * An endpoint's deliveries, newest first (or oldest). The status is a literal (one of three, validated), so
 * the planner matches a page of pending or failed ones with webhook_deliveries_endpoint_status_idx's
 * predicate (043) in a generic plan too; the total is the endpoint's counters (webhook_delivery_counts, 043),
 * not a count of its deliveries, which at millions of them read the whole table on every page.
 */
export async function listDeliveries(db: Executor, filter: DeliveryFilter) {
  const status = filter.status ? sql`and d.status = ${sql.lit(filter.status)}` : sql``;
  const direction = sql.raw(filter.sort?.direction === 'asc' ? 'asc' : 'desc');
  const [rows, count] = await Promise.all([
    sql<DeliveryRow>`
      select ${columns} from webhook_deliveries d join events e on e.id = d.event_id
      where d.endpoint_id = ${filter.webhookId}::uuid ${status}
      order by d.created_at ${direction}, d.id ${direction}
      limit ${filter.size} offset ${filter.page * filter.size}`.execute(db),
    sql<{ total: number }>`
      select coalesce(sum(n), 0)::int8 as total from webhook_delivery_counts d
      where d.endpoint_id = ${filter.webhookId}::uuid ${status}`.execute(db),
  ]);
  return { rows: rows.rows.map(toDelivery), total: count.rows[0]!.total };
}

/** Every delivery the filter matches, in the list's order, with the same mapping: the list's CSV export. */
export function deliveriesExportSource(db: Db, filter: Omit<DeliveryFilter, 'page' | 'size'>) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.claimed_until',
      'd.last_attempt_at',
      'd.response_status',
      'd.last_error',
      'd.created_at',
      'e.id as event_id',
      'e.type as event_type',
      'e.data as event_data',
      'e.created_at as event_created_at',
    ])
    .where('d.endpoint_id', '=', filter.webhookId);
  // A literal, as in listDeliveries: a failed or pending export reads 043's partial index.
  if (filter.status) query = query.where('d.status', '=', sql.lit(filter.status));
  const direction = filter.sort?.direction ?? 'desc';
  return listSource(
    query,
    {
      column: 'd.created_at',
      direction,
      nulls: 'database',
      tiebreak: { column: 'd.id', direction },
    },
    (rows) => rows.map((row) => toDelivery(row as DeliveryRow)),
  );
}

export async function findDelivery(db: Executor, webhookId: string, id: string) {
  const result = await sql<DeliveryRow>`
    select ${columns} from webhook_deliveries d join events e on e.id = d.event_id
    where d.id = ${id}::uuid and d.endpoint_id = ${webhookId}::uuid`.execute(db);
  return result.rows[0] ? toDelivery(result.rows[0]) : undefined;
}

/**
 * Makes a delivery due now. A finished one is queued again with a fresh retry schedule; one waiting for its
 * next retry keeps its attempts and goes now instead (the receiver was mended: nobody wants to wait hours);
 * one whose attempt is running is left to it.
 */
export async function requeueDelivery(db: Executor, webhookId: string, id: string): Promise<void> {
  await sql`
    update webhook_deliveries set status = 'pending', next_attempt_at = now(), claimed_until = null,
      attempts = case when status = 'pending' then attempts else 0 end
    where id = ${id}::uuid and endpoint_id = ${webhookId}::uuid
      and (status <> 'pending' or claimed_until is null or claimed_until <= now())`.execute(db);
}

/** An attempt a worker has claimed: where to send what. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  endpoint_id: string;
  url: string;
  secret_cipher: string;
  event_id: number;
  event_type: string;
  /** JSON text, spliced into the body as it is (`eventBody`). */
  event_data: string;
  event_created_at: Date;
  /** The event's own random id (migration 047), its deliveries' `webhook-id` (`webhookMessageId`). */
  message_id: string;
}

/** An attempt that has ended, to be recorded against the claim it ran under. */
export interface FinishedAttempt {
  id: string;
  attempts: number;
  outcome: AttemptOutcome;
}

/**
 * The outcomes written, each only if the claim is still its attempt's (`attempts` unchanged): after a lease
 * ran out and another worker took the delivery, the late answer of this one changes nothing.
 */
function recordStep(finished: readonly FinishedAttempt[]) {
  const rows = finished.map(({ id, attempts, outcome }) => ({
    id,
    attempts,
    status: statusAfter(outcome),
    retry: outcome.retryInSeconds,
    response_status: outcome.responseStatus,
    last_error: outcome.error,
  }));
  return sql`update webhook_deliveries d
    set status = f.status,
      next_attempt_at = case when f.status = 'pending' then now() + make_interval(secs => f.retry) end,
      claimed_until = null, response_status = f.response_status, last_error = f.last_error
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as f(id uuid, attempts integer, status text, retry double precision, response_status integer, last_error text)
    where d.id = f.id and d.attempts = f.attempts and d.status = 'pending'`;
}

/** Records ended attempts, in one statement however many. */
export async function recordAttempts(db: Executor, finished: readonly FinishedAttempt[]): Promise<void> {
  if (finished.length > 0) await recordStep(finished).execute(db);
}

/**
 * A delivery row whose attempt is running: claimed, lease not over (webhook_deliveries_claimed_idx, 020).
 * Counted against `perEndpoint` by the rows' claim and the streams' claim alike.
 */
export const attemptRunning = sql`status = 'pending' and claimed_until is not null and claimed_until > now()`;

/**
 * Claims up to `limit` due deliveries for one attempt each, safely among any number of servers: the rows
 * are locked `FOR UPDATE SKIP LOCKED` and their `next_attempt_at` pushed to the end of a lease, in one
 * short transaction, so no other worker takes them while the attempt runs, and if this server dies they
 * are due again once the lease ends. At most `perEndpoint` attempts run per endpoint (counting those of
 * other servers), so one slow receiver cannot take every slot. A disabled endpoint's deliveries wait until
 * it is enabled again. The attempts this worker has `finished` meanwhile are recorded by the same
 * statement (they no longer count as running): under a backlog one statement ends a batch and claims the
 * next, where a statement per attempt and per claim cost an accrual a fifth of its throughput (issue 12).
 */
export async function claimDeliveries(
  db: Executor,
  options: { limit: number; perEndpoint: number; leaseMs: number; finished?: readonly FinishedAttempt[] },
): Promise<ClaimedDelivery[]> {
  const finished = options.finished ?? [];
  const recorded = finished.length > 0 ? sql`recorded as (${recordStep(finished)}),` : sql``;
  // Uuids need no quoting inside an array literal.
  const ended = `{${finished.map((f) => f.id).join(',')}}`;
  const notEnded = finished.length > 0 ? sql`and not (id = any(${ended}::uuid[]))` : sql``;
  const result = await sql<ClaimedDelivery>`
    with ${recorded}
    -- Each active endpoint's own due rows, at most perEndpoint of them (webhook_deliveries_endpoint_due_idx,
    -- 034): taken from the oldest due rows of all endpoints, a dead endpoint's retries filled the window and
    -- no other endpoint's due row was claimed until they were all tried.
    candidates as (
      select d.id, d.endpoint_id, d.next_attempt_at
      from webhook_endpoints w
      cross join lateral (
        select id, endpoint_id, next_attempt_at from webhook_deliveries
        where endpoint_id = w.id and status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at
        limit ${options.perEndpoint}
        for update skip locked
      ) d
      where w.status = 'active'
    ),
    -- Attempts in flight, from webhook_deliveries_claimed_idx (020): never the whole pending backlog; and
    -- the slots of an endpoint's leased stream (streams.repository.ts).
    busy as (
      select endpoint_id, sum(n) as n from (
        select endpoint_id, count(*) as n from webhook_deliveries
        where ${attemptRunning} ${notEnded}
          and endpoint_id in (select endpoint_id from candidates)
        group by endpoint_id
        union all
        select id, stream_slots from webhook_endpoints
        where stream_lease_until > now() and id in (select endpoint_id from candidates)
      ) b
      group by endpoint_id
    ),
    chosen as (
      select id from (
        select c.id, c.next_attempt_at, coalesce(b.n, 0)
          + row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as slot
        from candidates c left join busy b on b.endpoint_id = c.endpoint_id
      ) ranked
      where slot <= ${options.perEndpoint}
      order by next_attempt_at
      limit ${options.limit}
    )
    update webhook_deliveries d
    set attempts = d.attempts + 1, last_attempt_at = now(),
      next_attempt_at = now() + make_interval(secs => ${options.leaseMs / 1000}),
      claimed_until = now() + make_interval(secs => ${options.leaseMs / 1000})
    from chosen, webhook_endpoints w, events e
    where d.id = chosen.id and w.id = d.endpoint_id and e.id = d.event_id
    returning d.id, d.attempts, d.endpoint_id, w.url, w.secret_cipher, e.id as event_id, e.type as event_type,
      e.data::text as event_data, e.created_at as event_created_at, e.message_id`.execute(db);
  return result.rows;
}

/** The delivery of one event to one endpoint (the test event has exactly one). */
export async function deliveryIdOf(db: Executor, webhookId: string, eventId: number): Promise<string> {
  const result = await sql<{ id: string }>`
    select id from webhook_deliveries
    where endpoint_id = ${webhookId}::uuid and event_id = ${eventId}`.execute(db);
  return result.rows[0]!.id;
}

/** `npm run rebuild-derived`'s step: the deliveries' counters (migration 043) recomputed from the deliveries. */
export async function rebuildDeliveryCounts(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    await sql`lock table webhook_deliveries in share mode`.execute(trx);
    await sql`select derived_rebuild_webhook_delivery_counts()`.execute(trx);
  });
}
