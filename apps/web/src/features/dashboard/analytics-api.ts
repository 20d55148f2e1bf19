import type {
  CardsAnalytics,
  OperationsAnalytics,
  PointsSummary,
  RetentionAnalytics,
} from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type AnalyticsRange, type ChartRange, METRIC_WINDOWS, trailingRange } from './analytics-windows';

const ANALYTICS = '/api/v1/analytics';

/** A series together with the window it was asked for (the window moves with the clock). */
export type Windowed<T> = T & { range: AnalyticsRange };

export const analyticsKeys = {
  all: ['analytics'] as const,
  summary: ['analytics', 'bonuses-circulation'] as const,
  operations: (range: ChartRange) => ['analytics', 'operations', range] as const,
  cards: (range: ChartRange) => ['analytics', 'cards', range] as const,
  retention: (range: ChartRange) => ['analytics', 'retention', range] as const,
};

// The dashboard reports a failed load itself, once for all its calls (use-load-failure-toast.ts).
const meta = { silent: true };

const sameRange = (a: AnalyticsRange, b: AnalyticsRange) => a.from === b.from && a.to === b.to;

async function fetchSeries<T>(path: string, window: ChartRange, signal: AbortSignal): Promise<Windowed<T>> {
  // The window is taken when the call starts, so a refetch (Refresh) always asks for the current one.
  let range = trailingRange(window);
  for (let asked = 1; ; asked++) {
    const body = await apiClient.get<T>(`${ANALYTICS}/${path}`, {
      query: { from: range.from, to: range.to, groupBy: range.groupBy },
      signal,
    });
    // The first answers of a visit tell the server's time (lib/server-clock.ts): a window taken from a browser
    // clock that is off by hours is asked again, once, as the server's clock has it.
    const current = trailingRange(window);
    if (asked > 1 || sameRange(range, current)) return { ...body, range };
    range = current;
  }
}

export function pointsSummaryQuery() {
  return queryOptions({
    queryKey: analyticsKeys.summary,
    queryFn: ({ signal }) => apiClient.get<PointsSummary>(`${ANALYTICS}/bonuses-circulation`, { signal }),
    meta,
  });
}

export function operationsQuery(range: ChartRange) {
  return queryOptions({
    queryKey: analyticsKeys.operations(range),
    queryFn: ({ signal }) => fetchSeries<OperationsAnalytics>('operations', range, signal),
    // Switching ranges keeps the previous bars (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
    meta,
  });
}

export function issuedCardsQuery() {
  const range = METRIC_WINDOWS.cards;
  return queryOptions({
    queryKey: analyticsKeys.cards(range),
    queryFn: ({ signal }) => fetchSeries<CardsAnalytics>('cards', range, signal),
    meta,
  });
}

export function activeUsersQuery() {
  const range = METRIC_WINDOWS.activeUsers;
  return queryOptions({
    queryKey: analyticsKeys.retention(range),
    queryFn: ({ signal }) => fetchSeries<RetentionAnalytics>('retention', range, signal),
    meta,
  });
}
