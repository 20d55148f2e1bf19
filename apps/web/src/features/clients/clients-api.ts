import type { ClientLookupResponse } from '@loyalty/contracts';
import { apiClient } from '@/lib/api-client';

/** Spec section 9: 10 rows per section, pages zero-based. */
export const LOOKUP_PAGE_SIZE = 10;

export type LookupSection = 'accounts' | 'cards' | 'operations';
export type LookupPages = Record<LookupSection, number>;

export const firstPages: LookupPages = { accounts: 0, cards: 0, operations: 0 };

/** Spec section 7: the search text is the path's {id}; each section has its own page and size. */
export function lookupClient(text: string, pages: LookupPages): Promise<ClientLookupResponse> {
  return apiClient.get<ClientLookupResponse>(`/api/v1/clients/${encodeURIComponent(text)}/lookup`, {
    query: {
      accountsPage: pages.accounts,
      accountsSize: LOOKUP_PAGE_SIZE,
      cardsPage: pages.cards,
      cardsSize: LOOKUP_PAGE_SIZE,
      operationsPage: pages.operations,
      operationsSize: LOOKUP_PAGE_SIZE,
    },
  });
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / LOOKUP_PAGE_SIZE));
}
