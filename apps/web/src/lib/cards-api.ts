import type { BulkBlockCardsResponse, Card, CardListItem, CardStatus, Paged } from '@loyalty/contracts';
import { apiClient } from './api-client';

/**
 * The card calls shared by the Loyalty Cards screen and the Accounts screen's Cards dialog. Each screen
 * attaches its own error toast (query/mutation meta), so only the fetchers and the keys live here.
 */
export interface CardListParams {
  page: number;
  size: number;
  sort?: string;
  search?: string;
  status?: CardStatus;
  accountId?: string;
}

export const cardsKeys = {
  all: ['cards'] as const,
  list: (params: CardListParams) => ['cards', 'list', params] as const,
};

export function fetchCards(params: CardListParams, signal?: AbortSignal): Promise<Paged<CardListItem>> {
  return apiClient.get<Paged<CardListItem>>('/api/v1/cards', { query: { ...params }, signal });
}

/**
 * `idempotencyKey`: the same key for the same account issues one card, so asking again after an answer that
 * never came (a lost connection, a 503 at COMMIT) gets that card back, not a second one.
 */
export function issueCard({
  accountId,
  idempotencyKey,
}: {
  accountId: string;
  idempotencyKey: string;
}): Promise<Card> {
  return apiClient.post<Card>(`/api/v1/cards/issue/${encodeURIComponent(accountId)}`, undefined, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** No reason: the server records 'Blocked by admin'. */
export function blockCard({ id, reason }: { id: string; reason?: string }): Promise<Card> {
  return apiClient.post<Card>(`/api/v1/cards/${encodeURIComponent(id)}/block`, reason ? { reason } : {});
}

/** Returns the new card; the old one is blocked and points at it. */
export function reissueCard(id: string): Promise<Card> {
  return apiClient.post<Card>(`/api/v1/cards/${encodeURIComponent(id)}/reissue`);
}

/** Several cards, one reason: each card's outcome in the answer (ADMIN-API "Block selected cards"). */
export function blockCards({
  ids,
  reason,
}: {
  ids: string[];
  reason: string;
}): Promise<BulkBlockCardsResponse> {
  return apiClient.post<BulkBlockCardsResponse>('/api/v1/cards/block', { ids, reason });
}
