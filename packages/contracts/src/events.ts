import { z } from 'zod';
import { idInput, isoTimestamp, listFormat, pageQuery, sortParam } from './common';

/** What a connected system can hear (PROGRAMME-API.md §5); `webhook.test` only from "Send test event". */
export const eventTypes = [
  'account.created',
  'account.erased',
  'card.issued',
  'card.blocked',
  'card.reissued',
  'points.accrued',
  'points.redeemed',
  'points.returned',
  'points.adjusted',
  'points.expired',
  'hold.created',
  'hold.released',
  'hold.expired',
] as const;
export const eventType = z.enum(eventTypes);
export type EventType = z.infer<typeof eventType>;
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * An event id: the outbox row's number, as a string. Its deliveries' `webhook-id` is
 * `evt_<installation id>_<event id>`: the number alone repeats across installations and rebuilt databases.
 */
const eventId = z.string().regex(/^\d{1,18}$/, 'must be an event id');

export const event = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: isoTimestamp,
  /** The operation, card or account as the admin API shows it; `balance`, `availableBalance` where points move. */
  data: z.record(z.string(), z.unknown()),
});
export type LoyaltyEvent = z.infer<typeof event>;

export const MAX_EVENT_PAGE = 500;

export const eventFeedQuery = z.object({
  after: eventId.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_EVENT_PAGE).default(100),
  /** One type or several: comma-separated, the parameter repeated (`type=a&type=b`), or both. */
  type: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => [v].flat().flatMap((part) => part.split(',').map((t) => t.trim())))
    .pipe(z.array(eventType).min(1))
    .optional()
    .describe(
      `Event types to list: one, several comma-separated (type=a,b), the parameter repeated (type=a&type=b), or both. One of: ${eventType.options.join(', ')}`,
    ),
});
export type EventFeedQuery = z.input<typeof eventFeedQuery>;

export const eventFeed = z.object({
  events: z.array(event),
  /**
   * The `after` of the following page: the last event's id; the same cursor again when nothing is new. A page
   * filtered by type that is not full gives the last event it read, of any type: it reads at most 10,000.
   */
  next: z.string().nullable(),
});
export type EventFeed = z.infer<typeof eventFeed>;

export const webhookStatuses = ['active', 'disabled'] as const;
export const webhookStatus = z.enum(webhookStatuses);
export type WebhookStatus = z.infer<typeof webhookStatus>;

export const webhook = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(eventType),
  status: webhookStatus,
  createdAt: isoTimestamp,
});
export type Webhook = z.infer<typeof webhook>;

/**
 * How a receiver checks a delivery (PROGRAMME-API §5 names the signed string, not the key): the HMAC key is the
 * base64-decoded text after `whsec_`, as Standard Webhooks libraries take such a secret.
 */
function webhookSigningSecret() {
  return z
    .string()
    .describe(
      '`whsec_` + base64 of the key. Each delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and ' +
        '`webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed ' +
        'with the base64-decoded text after `whsec_` (what Standard Webhooks libraries do with this secret).',
    );
}

/** Only at creation: the signing secret, shown once (revealable later by an ADMIN, audited). */
export const createdWebhook = webhook.extend({ secret: webhookSigningSecret() });
export type CreatedWebhook = z.infer<typeof createdWebhook>;

export const webhookSecret = z.object({ secret: webhookSigningSecret() });

/**
 * Deliveries are authenticated by their signature (Standard Webhooks), so a URL needs no user name or
 * password; one there would be shown to every ADMIN in the endpoints list. Refused here, so the console's
 * form says it before the server does, in the same words. Read as the URL parser (WHATWG) reads the URL, so
 * every spelling of `user:pw@` counts, and an `@` in the path does not. It runs only after the URL check
 * passed (its `abort`); were it not, that check says what is wrong.
 */
// The WHATWG URL both platforms of this package have (Node, the browser); it is typed by neither's lib here.
declare const URL: {
  canParse(url: string): boolean;
  new (url: string): { username: string; password: string };
};
const hasNoCredentials = (url: string) => {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return !parsed || (parsed.username === '' && parsed.password === '');
};

const webhookUrl = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, message: 'URL must be an http(s) URL', abort: true }))
  .refine(hasNoCredentials, 'URL must not contain a user name or password')
  // What the checks above refuse, for a client to see: http or https (any letter case), a host, and no
  // user name or password before it (an @ in the path is fine).
  .meta({
    pattern: String.raw`^\s*[Hh][Tt][Tt][Pp][Ss]?://[^\s/?#@\\]+([/?#\\].*)?\s*$`,
    description: 'an http or https URL, without a user name or password',
  });
const eventTypeList = z
  .array(eventType)
  .min(1, 'Choose at least one event type')
  .transform((types) => [...new Set(types)]);
const description = z
  .string()
  .trim()
  .max(500)
  .nullish()
  .transform((v) => (v ? v : null));

export const createWebhookRequest = z.object({
  url: webhookUrl,
  description,
  eventTypes: eventTypeList,
  status: webhookStatus.default('active'),
});
export type CreateWebhookRequest = z.input<typeof createWebhookRequest>;

/** Any of the fields, at least one: a change that names none is a 400, not an UPDATE without columns. */
export const updateWebhookRequest = z
  .object({ url: webhookUrl, description, eventTypes: eventTypeList, status: webhookStatus })
  .partial()
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: 'Give at least one of url, description, eventTypes, status',
  })
  .meta({ minProperties: 1 });
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequest>;

export const deliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export const deliveryStatus = z.enum(deliveryStatuses);
export type DeliveryStatus = z.infer<typeof deliveryStatus>;

/** The endpoints list counts an endpoint's backlog up to this many: the count stays cheap however far behind. */
export const WEBHOOK_BACKLOG_CAP = 10_000;
/** How many of an endpoint's latest deliveries (newest created first) its list row's summary is over. */
export const WEBHOOK_SUMMARY_WINDOW = 1_000;

/**
 * A row of the endpoints list: the endpoint with what its latest WEBHOOK_SUMMARY_WINDOW deliveries say. The
 * last delivery is the one of them attempted last (`pending` there means its last attempt failed and a retry
 * is due); the success rate counts their finished ones only (succeeded / (succeeded + failed)), null before
 * any finished.
 *
 * The backlog is what the endpoint still has to get: committed events of its types that its stream has not
 * reached yet, plus its pending deliveries that are due (a retry whose time has come, the test event, a
 * Retry). Counted up to WEBHOOK_BACKLOG_CAP, so that value means "at least"; 0 is caught up. Null for a
 * disabled endpoint: its stream does not move, and enabled again it starts from then, so nothing waits.
 * `backlogSince` is when the oldest event its stream has not reached was written (null when none waits).
 */
export const webhookListItem = webhook.extend({
  lastDeliveryAt: isoTimestamp.nullable(),
  lastDeliveryStatus: deliveryStatus.nullable(),
  successRate: z.number().min(0).max(1).nullable(),
  backlog: z.number().int().min(0).max(WEBHOOK_BACKLOG_CAP).nullable(),
  backlogSince: isoTimestamp.nullable(),
});
export type WebhookListItem = z.infer<typeof webhookListItem>;

/**
 * One event's delivery to one endpoint. It exists from the event's first attempt on: an event its endpoint's
 * stream has not reached yet (usually well under a second, see modules/events/README.md) is not listed. The
 * test event, a Retry of a finished delivery and the events a batch left unsent are listed `pending` with 0
 * attempts; a Retry of one waiting for its next retry keeps its attempts and is due at once.
 */
export const delivery = z.object({
  id: z.uuid(),
  webhookId: z.uuid(),
  eventId: z.string(),
  eventType: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  /** When the next attempt is due (pending only). */
  nextAttemptAt: isoTimestamp.nullable(),
  lastAttemptAt: isoTimestamp.nullable(),
  /** HTTP status of the last answer; null when none came (refused, timed out, unreachable). */
  responseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: isoTimestamp,
  payload: event,
});
export type Delivery = z.infer<typeof delivery>;

/** Newest first unless `sort=createdAt,asc`; any other sort is a 400. */
export const deliveryListQuery = pageQuery
  .omit({ search: true })
  .extend({ format: listFormat, status: deliveryStatus.optional(), sort: sortParam(['createdAt']) });
export type DeliveryListQuery = z.input<typeof deliveryListQuery>;

export const deliveryParams = z.object({ id: idInput, deliveryId: idInput });
