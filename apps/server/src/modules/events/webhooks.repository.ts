import {
  type DeliveryStatus,
  type EventType,
  WEBHOOK_BACKLOG_CAP,
  WEBHOOK_SUMMARY_WINDOW,
  type Webhook,
  type WebhookListItem,
  type WebhookStatus,
} from '@loyalty/contracts';
import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Database } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { toIso } from '../../lib/paging';
import { endpointBacklog } from './streams.repository';

const publicColumns = ['id', 'url', 'description', 'event_types', 'status', 'created_at'] as const;

/** What the answers read: the public columns, typed from the generated schema (db/schema.gen.ts). */
type WebhookRow = Pick<Selectable<Database['webhook_endpoints']>, (typeof publicColumns)[number]>;
export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types as EventType[],
    status: row.status,
    createdAt: toIso(row.created_at) as string,
  };
}

/**
 * Every endpoint, oldest first (a handful per programme: no paging), each with its delivery summary and
 * its backlog. The summary is over the endpoint's latest `window` (the contract's) deliveries, read newest first
 * through webhook_deliveries_endpoint_idx: over all of them (retention keeps EVENT_RETENTION_DAYS, millions
 * at 10M operations a month) every view of the list read them all. The backlog is counted up to `cap` (the
 * contract's; a test passes a small one): an endpoint far behind is not counted to its end on every request.
 */
export async function listWebhooks(
  db: Executor,
  cap = WEBHOOK_BACKLOG_CAP,
  window = WEBHOOK_SUMMARY_WINDOW,
): Promise<WebhookListItem[]> {
  const rows = await db
    .selectFrom('webhook_endpoints as w')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom((inner) =>
            inner
              .selectFrom('webhook_deliveries as r')
              .whereRef('r.endpoint_id', '=', 'w.id')
              .select(['r.id', 'r.status', 'r.last_attempt_at'])
              .orderBy('r.created_at', 'desc')
              .orderBy('r.id', 'desc')
              .limit(window)
              .as('d'),
          )
          .select([
            sql<Date | null>`max(d.last_attempt_at)`.as('last_attempt_at'),
            sql<DeliveryStatus | null>`(array_agg(d.status order by d.last_attempt_at desc, d.id desc)
              filter (where d.last_attempt_at is not null))[1]`.as('last_status'),
            sql<number>`count(*) filter (where d.status = 'succeeded')::int`.as('succeeded'),
            sql<number>`count(*) filter (where d.status = 'failed')::int`.as('failed'),
          ])
          .as('s'),
      (join) => join.onTrue(),
    )
    // No row for a disabled endpoint: its backlog is null.
    .leftJoinLateral(endpointBacklog(cap).as('b'), (join) => join.onTrue())
    .select(publicColumns.map((column) => `w.${column}` as const))
    .select(['s.last_attempt_at', 's.last_status', 's.succeeded', 's.failed', 'b.backlog', 'b.backlog_since'])
    .orderBy('w.created_at')
    .execute();
  return rows.map((row) => {
    // An aggregate without GROUP BY always yields its one row; the left join only makes the types nullable.
    const succeeded = row.succeeded ?? 0;
    const finished = succeeded + (row.failed ?? 0);
    return {
      ...toWebhook(row),
      lastDeliveryAt: toIso(row.last_attempt_at),
      lastDeliveryStatus: row.last_status,
      successRate: finished > 0 ? succeeded / finished : null,
      backlog: row.backlog,
      backlogSince: toIso(row.backlog_since),
    };
  });
}

export async function findWebhook(db: Executor, id: string, lock = false): Promise<Webhook | undefined> {
  let query = db.selectFrom('webhook_endpoints').select(publicColumns).where('id', '=', id);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toWebhook(row) : undefined;
}

export async function findWebhookCipher(db: Executor, id: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select([...publicColumns, 'secret_cipher'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface WebhookValues {
  url: string;
  description: string | null;
  eventTypes: EventType[];
  status: WebhookStatus;
}

export async function insertWebhook(
  trx: Tx,
  values: WebhookValues & { id: string; secretCipher: string },
): Promise<Webhook> {
  const row = await trx
    .insertInto('webhook_endpoints')
    .values({
      id: values.id,
      url: values.url,
      description: values.description,
      event_types: values.eventTypes,
      status: values.status,
      secret_cipher: values.secretCipher,
    })
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toWebhook(row);
}

export async function updateWebhook(trx: Tx, id: string, values: Partial<WebhookValues>): Promise<Webhook> {
  const row = await trx
    .updateTable('webhook_endpoints')
    .set({
      ...(values.url !== undefined ? { url: values.url } : {}),
      ...(values.description !== undefined ? { description: values.description } : {}),
      ...(values.eventTypes !== undefined ? { event_types: values.eventTypes } : {}),
      ...(values.status !== undefined ? { status: values.status } : {}),
      // Enabled again: its stream starts from now, so what was written while it was disabled is not sent.
      // A batch in flight keeps its lease: it records what it sent, and only ever moves the stream forward
      // (`recordStream`); a claimed one reads from here (`readLeasedStream`). README, Deliveries.
      ...(values.status === 'active'
        ? {
            stream_xid: sql`case when status = 'disabled' then pg_current_xact_id() else stream_xid end`,
            stream_id: sql`case when status = 'disabled' then 0 else stream_id end`,
          }
        : {}),
    })
    .where('id', '=', id)
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toWebhook(row);
}

/** Its deliveries go with it (foreign key cascade). */
export async function deleteWebhook(trx: Tx, id: string): Promise<void> {
  await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}
