import type { ExpiryForecast, Lot, LotConsumption, LotStatus, Paged } from '@loyalty/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export interface LotsParams {
  accountId: string;
  page: number;
  size: number;
  status?: LotStatus;
}

/** The lots queries of one account (its pages and its forecast), reloaded after the console's own credit of it. */
export const accountLotsKey = (accountId: string) => ['lots', accountId] as const;

const lotsPath = (accountId: string) => `/api/v1/accounts/${encodeURIComponent(accountId)}`;

/** One account's lots, newest first (PROGRAMME-API §1 "Reads"). */
export function accountLotsQuery({ accountId, ...query }: LotsParams) {
  return queryOptions({
    queryKey: [...accountLotsKey(accountId), query] as const,
    queryFn: ({ signal }) => apiClient.get<Paged<Lot>>(`${lotsPath(accountId)}/lots`, { query, signal }),
    // The old page stays while the next loads; another account's never does (the key starts with it).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === accountId ? previous : undefined,
    meta: { errorContext: 'Load account lots' },
  });
}

/** Points of the account that expire within 30, 60 and 90 days (cumulative). */
export function expiryForecastQuery(accountId: string) {
  return queryOptions({
    queryKey: [...accountLotsKey(accountId), 'forecast'] as const,
    queryFn: ({ signal }) =>
      apiClient.get<ExpiryForecast>(`${lotsPath(accountId)}/expiry-forecast`, { signal }),
    meta: { errorContext: 'Load expiry forecast' },
  });
}

/** What the debits took from one lot, oldest first (PROGRAMME-API §1: every point can be traced). */
export function lotConsumptionsQuery({
  accountId,
  lotId,
  ...query
}: {
  accountId: string;
  lotId: string;
  page: number;
  size: number;
}) {
  return queryOptions({
    // Under the account's lots key: a credit of the account reloads it with them.
    queryKey: [...accountLotsKey(accountId), 'consumptions', lotId, query] as const,
    queryFn: ({ signal }) =>
      apiClient.get<Paged<LotConsumption>>(
        `${lotsPath(accountId)}/lots/${encodeURIComponent(lotId)}/consumptions`,
        { query, signal },
      ),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[3] === lotId ? previous : undefined,
    meta: { errorContext: 'Load lot consumptions' },
  });
}
