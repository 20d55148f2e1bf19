import { randomUUID } from 'node:crypto';
import {
  type CreatedWebhook,
  type Delivery,
  type EventType,
  type Paged,
  TEST_EVENT_TYPE,
  type Webhook,
  type WebhookStatus,
} from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction, type Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import type { Secrets } from '../../lib/secrets';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { type Created, createUnderKey } from '../ledger/admin-idempotency';
import { createKeyCrypto, type KeyCrypto } from '../pos-keys/key-crypto';
import {
  type DeliveryFilter,
  deliveriesExportSource,
  deliveryIdOf,
  findDelivery,
  listDeliveries,
  requeueDelivery,
} from './deliveries.repository';
import { insertEvents } from './events.repository';
import { checkSavedTarget, TargetRefused } from './ssrf-guard';
import { newSigningSecret } from './webhook-sender';
import {
  deleteWebhook,
  findWebhook,
  findWebhookCipher,
  insertWebhook,
  toWebhook,
  updateWebhook,
} from './webhooks.repository';

/** Signing secrets are stored like POS keys (AES-256-GCM, key from POS_KEY_SECRET), under their own keys. */
export const webhookCrypto = (secrets: Secrets) => createKeyCrypto(secrets.posKeySecret, 'webhook');

interface WebhookInput {
  url: string;
  description: string | null;
  eventTypes: EventType[];
  status: WebhookStatus;
}

/** What can be judged before any DNS: the scheme and an address written in the URL (PROGRAMME-API §5). */
function checkUrl(url: string | undefined, allowPrivate: boolean) {
  if (url === undefined) return;
  try {
    checkSavedTarget(url, allowPrivate);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    const message = allowPrivate
      ? `URL not allowed: ${error.message}`
      : `URL must be https to a public address (${error.message})`;
    throw new AppError('VALIDATION_ERROR', `url: ${message}`, [{ field: 'url', message }]);
  }
}

/**
 * The endpoint as the audit log keeps it: credentials in its URL (Basic auth to the receiver, or a token
 * as the user name) and the values of its query (`?token=…`, `?code=…` of a function host: where receivers
 * put their API keys) are secrets (ADMIN-API.md "Audit": no secret ever appears in it), so they are masked;
 * the scheme, host, path and the query's names still say which endpoint it was.
 */
function forAudit<T extends { url: string }>(webhook: T): T {
  const url = new URL(webhook.url);
  if (!url.username && !url.password && !url.search) return webhook;
  if (url.username || url.password) {
    url.username = '***';
    url.password = '';
  }
  const names = [...url.searchParams.keys()];
  url.search = names.map((name) => `${encodeURIComponent(name)}=***`).join('&');
  return { ...webhook, url: url.toString() };
}

async function existing(db: Db, id: string) {
  const found = await findWebhook(db, id);
  if (!found) throw new AppError('WEBHOOK_NOT_FOUND');
  return found;
}

/** The endpoint, locked for the rest of the transaction: a change, a delete, a test or a retry go one at a time. */
async function lockedWebhook(trx: Tx, id: string) {
  const found = await findWebhook(trx, id, true);
  if (!found) throw new AppError('WEBHOOK_NOT_FOUND');
  return found;
}

/** The answer of an endpoint's creation as kept for its replay: its signing secret and URL encrypted. */
interface SealedWebhook extends Omit<CreatedWebhook, 'url' | 'secret'> {
  urlCipher: string;
  secretCipher: string;
}

/**
 * A new endpoint and its signing secret, shown once. With an Idempotency-Key (`createUnderKey`), the same
 * request again gets the first endpoint and its secret back instead of a second endpoint for the URL (which
 * would get every event twice). The answer kept for that is sealed: the secret encrypted as the endpoint's
 * own `secret_cipher` (never in clear), and the URL too, as it may carry the receiver's credentials and the
 * kept answer outlives the endpoint; the request hash takes the URL's keyed hash for the same reason.
 */
export async function createWebhook(
  db: Db,
  crypto: KeyCrypto,
  actor: AuthUser,
  input: WebhookInput,
  allowPrivate: boolean,
  idempotencyKey?: string,
): Promise<Created<CreatedWebhook>> {
  checkUrl(input.url, allowPrivate);
  const id = randomUUID();
  const secret = newSigningSecret();
  const keyed = {
    key: idempotencyKey,
    userId: actor.id,
    route: 'create-webhook',
    request: { ...input, url: crypto.hash(input.url) },
  };
  // The URL's cipher is bound to another row id than the secret's, so the two cannot be swapped.
  const urlRowId = (webhookId: string) => `${webhookId}/url`;
  const sealed = {
    seal: ({ url, secret: shown, ...rest }: CreatedWebhook): SealedWebhook => ({
      ...rest,
      urlCipher: crypto.encrypt(url, urlRowId(rest.id)),
      secretCipher: crypto.encrypt(shown, rest.id),
    }),
    open: (stored: unknown): CreatedWebhook => {
      const { urlCipher, secretCipher, ...rest } = stored as SealedWebhook;
      return {
        ...rest,
        url: crypto.decrypt(urlCipher, urlRowId(rest.id)),
        secret: crypto.decrypt(secretCipher, rest.id),
      };
    },
  };
  return inTransaction(db, (trx) =>
    createUnderKey(
      trx,
      keyed,
      async () => {
        const webhook = await insertWebhook(trx, { ...input, id, secretCipher: crypto.encrypt(secret, id) });
        await insertAudit(trx, {
          username: actor.username,
          message: `Created webhook endpoint ${forAudit(webhook).url}`,
          targetType: 'webhook',
          targetId: id,
          source: null,
          dest: forAudit(webhook),
        });
        return { ...webhook, secret };
      },
      sealed,
    ),
  );
}

export async function changeWebhook(
  db: Db,
  actor: AuthUser,
  id: string,
  input: Partial<WebhookInput>,
  allowPrivate: boolean,
): Promise<Webhook> {
  checkUrl(input.url, allowPrivate);
  return inTransaction(db, async (trx) => {
    const before = await lockedWebhook(trx, id);
    const after = await updateWebhook(trx, id, input);
    await insertAudit(trx, {
      username: actor.username,
      message: `Updated webhook endpoint ${forAudit(after).url}`,
      targetType: 'webhook',
      targetId: id,
      source: forAudit(before),
      dest: forAudit(after),
    });
    return after;
  });
}

/**
 * A receiver answered 410 Gone (Standard Webhooks: disable the endpoint, stop sending): the endpoint is
 * disabled, as an ADMIN's PATCH would, with an audit entry of no user that says why. Only while it still
 * sends to the URL that answered: changed meanwhile, the new URL has not said anything. Enabled again, it
 * starts from then (README, Deliveries). Returns whether it was disabled now.
 */
export async function disableGoneEndpoint(db: Db, id: string, url: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const before = await findWebhook(trx, id, true);
    if (before?.status !== 'active' || before.url !== url) return false;
    const after = await updateWebhook(trx, id, { status: 'disabled' });
    await insertAudit(trx, {
      username: null,
      message: `Disabled webhook endpoint ${forAudit(after).url}: it answered 410 Gone (the receiver asked to stop sending)`,
      targetType: 'webhook',
      targetId: id,
      source: forAudit(before),
      dest: forAudit(after),
    });
    return true;
  });
}

export async function removeWebhook(db: Db, actor: AuthUser, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = await lockedWebhook(trx, id);
    await deleteWebhook(trx, id);
    await insertAudit(trx, {
      username: actor.username,
      message: `Deleted webhook endpoint ${forAudit(before).url}`,
      targetType: 'webhook',
      targetId: id,
      source: forAudit(before),
      dest: null,
    });
  });
}

/** The signing secret in clear, for ADMINs; every reveal is in the audit log (without the secret). */
/** The HEAD of a reveal: 404 for an unknown endpoint, and nothing decrypted or logged (HEAD is safe, RFC 9110). */
export async function webhookMustExist(db: Db, id: string): Promise<void> {
  await existing(db, id);
}

export async function revealWebhookSecret(db: Db, crypto: KeyCrypto, actor: AuthUser, id: string) {
  return inTransaction(db, async (trx) => {
    const row = await findWebhookCipher(trx, id);
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    const secret = crypto.decrypt(row.secret_cipher, row.id);
    await insertAudit(trx, {
      username: actor.username,
      message: `Revealed the signing secret of webhook endpoint ${forAudit(row).url}`,
      targetType: 'webhook',
      targetId: row.id,
      source: null,
      dest: forAudit(toWebhook(row)),
    });
    return { secret };
  });
}

export async function deliveriesPage(db: Db, filter: DeliveryFilter): Promise<Paged<Delivery>> {
  await existing(db, filter.webhookId);
  const { rows, total } = await listDeliveries(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every delivery the filter matches, newest first (the list's CSV export); 404 before anything is sent. */
export async function exportDeliveries(
  db: Db,
  filter: Omit<DeliveryFilter, 'page' | 'size'>,
): Promise<AsyncIterable<Delivery>> {
  await existing(db, filter.webhookId);
  return streamList(deliveriesExportSource(db, filter), { snapshot: db });
}

/**
 * Sends a delivery again now (`requeueDelivery`: a finished one with a fresh retry schedule), audited: it makes
 * the server send a signed request. The endpoint's row is locked, so a delete racing it is one or the other.
 */
export async function retryDelivery(
  db: Db,
  actor: AuthUser,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery> {
  return inTransaction(db, async (trx) => {
    const webhook = await lockedWebhook(trx, webhookId);
    await requeueDelivery(trx, webhookId, deliveryId);
    const found = await findDelivery(trx, webhookId, deliveryId);
    if (!found) throw new AppError('DELIVERY_NOT_FOUND');
    await insertAudit(trx, {
      username: actor.username,
      message: `Retried delivery ${deliveryId} of webhook endpoint ${forAudit(webhook).url}`,
      targetType: 'webhook',
      targetId: webhookId,
      source: null,
      dest: null,
    });
    return found;
  });
}

/**
 * A `webhook.test` event for this endpoint only, delivered like any other; audited. The endpoint's row is
 * locked: read unlocked, a delete committing before the delivery's insert failed its foreign key (a 500).
 */
export async function sendTestEvent(db: Db, actor: AuthUser, webhookId: string): Promise<Delivery> {
  return inTransaction(db, async (trx) => {
    const webhook = await lockedWebhook(trx, webhookId);
    const data = { webhookId, url: webhook.url, message: 'Test event sent from the console' };
    const [eventId] = await insertEvents(trx, [{ type: TEST_EVENT_TYPE, data }], webhookId);
    await insertAudit(trx, {
      username: actor.username,
      message: `Sent a test event to webhook endpoint ${forAudit(webhook).url}`,
      targetType: 'webhook',
      targetId: webhookId,
      source: null,
      dest: null,
    });
    return (await findDelivery(trx, webhookId, await deliveryIdOf(trx, webhookId, eventId!)))!;
  });
}
