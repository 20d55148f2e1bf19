import type { Account, CardListItem, ClientLookupResponse, Operation, Paged } from '@loyalty/contracts';
import { uuid } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { cardsKeys, fetchCards } from '@/lib/cards-api';

/**
 * The client page reads the same lists as the other screens, filtered to one account: the account
 * (GET /accounts/{id}), its cards (/cards?accountId), its operations (/operations?accountId) and its
 * receipts (its accruals: /operations?accountId&type=accrual, each opening the receipt view). The keys
 * sit under the lists' own roots, so a block or reissue anywhere refreshes this page too.
 */
export const clientKeys = {
  resolve: (ref: string) => ['clients', 'resolve', ref] as const,
  account: (id: string) => ['accounts', 'detail', id] as const,
  operations: (params: ClientOperationsParams) => ['operations', 'client', params] as const,
};

export function isAccountId(ref: string): boolean {
  return uuid.safeParse(ref).success;
}

/** Any text the client lookup understands → the accounts it names (the page needs exactly one). */
export function resolveClientQuery(ref: string, enabled: boolean) {
  return queryOptions({
    queryKey: clientKeys.resolve(ref),
    queryFn: ({ signal }) =>
      apiClient.get<ClientLookupResponse>(`/api/v1/clients/${encodeURIComponent(ref)}/lookup`, {
        query: { accountsSize: 10, cardsSize: 1, operationsSize: 1 },
        signal,
      }),
    enabled,
    meta: { errorTitle: 'Failed to load client data' },
  });
}

/** A 404 is not a failure here: the text may be a card's or an operation's id, resolved by the lookup. */
export function clientAccountQuery(id: string, enabled: boolean) {
  return queryOptions({
    queryKey: clientKeys.account(id),
    queryFn: ({ signal }) => apiClient.get<Account>(`/api/v1/accounts/${encodeURIComponent(id)}`, { signal }),
    enabled,
    meta: { errorTitle: 'Failed to load client data', ignoreStatuses: [404] },
  });
}

export interface ClientCardsParams {
  accountId: string;
  page: number;
  size: number;
}

export function clientCardsQuery(params: ClientCardsParams) {
  return queryOptions({
    queryKey: cardsKeys.list(params),
    queryFn: ({ signal }): Promise<Paged<CardListItem>> => fetchCards(params, signal),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Failed to load cards' },
  });
}

export interface ClientOperationsParams {
  accountId: string;
  page: number;
  size: number;
  type?: 'accrual';
  /** The receipts section: completed accruals only (a refused one stored no receipt). */
  status?: 'completed';
}

export function clientOperationsQuery(params: ClientOperationsParams) {
  return queryOptions({
    queryKey: clientKeys.operations(params),
    queryFn: ({ signal }) =>
      apiClient.get<Paged<Operation>>('/api/v1/operations', {
        query: { ...params, sort: 'createdAt,desc' },
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorTitle: params.type ? 'Failed to load receipts' : 'Failed to load operations' },
  });
}
