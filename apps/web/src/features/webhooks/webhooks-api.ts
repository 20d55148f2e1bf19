import type {
  CreatedWebhook,
  CreateWebhookRequest,
  Delivery,
  DeliveryStatus,
  EventType,
  Paged,
  Webhook,
  WebhookListItem,
  WebhookStatus,
} from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient, buildUrl } from '@/lib/api-client';
import { serverNow } from '@/lib/server-clock';

const WEBHOOKS = '/api/v1/webhooks';
const endpointPath = (id: string) => `${WEBHOOKS}/${encodeURIComponent(id)}`;

/** The drawer's page of deliveries, newest first: Previous / Next and the CSV export reach the rest. */
export const DELIVERIES_SHOWN = 50;
/** While a delivery's attempt is due or running the drawer asks again this often, so its outcome appears by itself. */
const PENDING_REFRESH_MS = 2000;
/** A next attempt at most this far ahead counts as due. */
const DUE_SOON_MS = 3000;
/**
 * An attempt started less than this long ago may still be running: the server's default time limit for an
 * answer (WEBHOOK_TIMEOUT_MS, 10 s) with room to spare. While it runs, `nextAttemptAt` is the attempt's lease
 * (contracts: Delivery), not a retry, so it cannot tell a running attempt from a waiting one.
 */
const ATTEMPT_RUNNING_MS = 15_000;
/** The longest the drawer waits before asking again while something is pending (a retry hours away). */
const PENDING_IDLE_REFRESH_MS = 30_000;

/**
 * How soon the drawer asks again: every 2 s while an attempt is due or running; while the pending ones only
 * wait for retries minutes or hours away, at the earliest one's time, and at least every 30 s (a Retry or an
 * endpoint enabled elsewhere changes them); never when nothing is pending. Times by the server's clock.
 */
export function deliveriesRefreshMs(deliveries: readonly Delivery[], now = serverNow()): number | false {
  let wait = Number.POSITIVE_INFINITY;
  for (const delivery of deliveries) {
    if (delivery.status !== 'pending') continue;
    const started = delivery.lastAttemptAt ? Date.parse(delivery.lastAttemptAt) : Number.NaN;
    if (now - started < ATTEMPT_RUNNING_MS) return PENDING_REFRESH_MS;
    const left = (delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) : now) - now;
    // Overdue by more than a running attempt takes: it waits for something else (a disabled endpoint, a
    // queue), so it counts as idle, not as due.
    wait = Math.min(wait, left <= -ATTEMPT_RUNNING_MS ? PENDING_IDLE_REFRESH_MS : left);
  }
  if (wait === Number.POSITIVE_INFINITY) return false;
  if (wait <= DUE_SOON_MS) return PENDING_REFRESH_MS;
  return Math.min(wait, PENDING_IDLE_REFRESH_MS);
}

export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  deliveries: (id: string, view: DeliveriesView) => ['webhooks', 'deliveries', id, view] as const,
};

/**
 * While an endpoint has a backlog the list asks again this often, so its count and age move by themselves
 * (never while the tab is hidden: React Query's default). The server counts at most the contract's cap.
 */
const BACKLOG_REFRESH_MS = 5000;

/** A handful of endpoints per programme: the server sends them all, with their delivery summaries. */
export const webhooksListQuery = queryOptions({
  queryKey: webhooksKeys.list,
  queryFn: ({ signal }) => apiClient.get<WebhookListItem[]>(WEBHOOKS, { signal }),
  refetchInterval: (query) =>
    query.state.data?.some((endpoint) => (endpoint.backlog ?? 0) > 0) ? BACKLOG_REFRESH_MS : false,
  // A 403 is the page's own permission state, not a failure to report on top of it (as on Users).
  meta: { errorTitle: 'Failed to load webhook endpoints', ignoreStatuses: [403] },
});

/** What the drawer shows: a page (from 0) of one status, or of all. */
export interface DeliveriesView {
  page: number;
  status: DeliveryStatus | undefined;
}

/** An endpoint's deliveries with the drawer's filter, for Export CSV (which drops page and size). */
export function deliveriesUrl(id: string, status: DeliveryStatus | undefined): string {
  return buildUrl(`${endpointPath(id)}/deliveries`, { status });
}

export function deliveriesQuery(id: string, view: DeliveriesView) {
  return queryOptions({
    queryKey: webhooksKeys.deliveries(id, view),
    queryFn: ({ signal }) =>
      apiClient.get<Paged<Delivery>>(`${endpointPath(id)}/deliveries`, {
        query: { page: view.page, size: DELIVERIES_SHOWN, status: view.status },
        signal,
      }),
    // The page shown stays while the next page or another filter loads.
    placeholderData: keepPreviousData,
    refetchInterval: (query) => deliveriesRefreshMs(query.state.data?.content ?? []),
    meta: { errorTitle: 'Failed to load deliveries' },
  });
}

/**
 * `idempotencyKey`: the same key with the same body adds one endpoint, so sending it again after an answer
 * that never came gets that endpoint and its signing secret back, not a second endpoint for the URL (which
 * would receive every event twice).
 */
export function createWebhook({
  idempotencyKey,
  ...body
}: CreateWebhookRequest & { idempotencyKey: string }): Promise<CreatedWebhook> {
  return apiClient.post<CreatedWebhook>(WEBHOOKS, body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

export function setWebhookStatus({ id, status }: { id: string; status: WebhookStatus }): Promise<Webhook> {
  return apiClient.patch<Webhook>(endpointPath(id), { status });
}

/** Every call is an audited reveal on the server, so it is never cached or retried. */
export function revealWebhookSecret(id: string): Promise<{ secret: string }> {
  return apiClient.get<{ secret: string }>(`${endpointPath(id)}/secret`);
}

export function sendTestEvent(id: string): Promise<Delivery> {
  return apiClient.post<Delivery>(`${endpointPath(id)}/test`);
}

export function retryDelivery({ webhookId, id }: Pick<Delivery, 'webhookId' | 'id'>): Promise<Delivery> {
  return apiClient.post<Delivery>(`${endpointPath(webhookId)}/deliveries/${encodeURIComponent(id)}/retry`);
}

/** The Add Endpoint dialog's checkboxes, grouped as the event names are. */
export const eventTypeGroups: readonly { title: string; types: readonly EventType[] }[] = [
  { title: 'Accounts', types: ['account.created', 'account.erased'] },
  { title: 'Cards', types: ['card.issued', 'card.blocked', 'card.reissued'] },
  {
    title: 'Points',
    types: ['points.accrued', 'points.redeemed', 'points.returned', 'points.adjusted', 'points.expired'],
  },
  { title: 'Holds', types: ['hold.created', 'hold.released', 'hold.expired'] },
];
