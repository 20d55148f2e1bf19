import type { CardStatus } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { cardsKeys, fetchCards } from '@/lib/cards-api';

export type CardFilters = { status: CardStatus | undefined };
export type CardsPageParams = ServerTableParams<CardFilters>;

export function cardsListQuery(params: CardsPageParams) {
  return queryOptions({
    queryKey: cardsKeys.list(params),
    queryFn: ({ signal }) => fetchCards(params, signal),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Failed to load cards' },
  });
}

/** Spec section 2 "Loyalty Cards": the status filter's choices. */
export const cardStatusOptions: readonly { value: CardStatus; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'blocked', label: 'Blocked' },
  { value: 'pending', label: 'Pending' },
];
