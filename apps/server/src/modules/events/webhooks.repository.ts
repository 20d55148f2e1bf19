import type { EventType, Webhook, WebhookStatus } from '@loyalty/contracts';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { toIso } from '../../lib/paging';

interface WebhookRow {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  status: WebhookStatus;
  created_at: Date;
}

const publicColumns = ['id', 'url', 'description', 'event_types', 'status', 'created_at'] as const;

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

/** Every endpoint, oldest first (a handful per programme: no paging). */
export async function listWebhooks(db: Executor): Promise<Webhook[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(publicColumns).orderBy('created_at').execute();
  return rows.map(toWebhook);
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
