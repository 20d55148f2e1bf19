import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  activeUsersQuery,
  analyticsKeys,
  issuedCardsQuery,
  operationsQuery,
  pointsSummaryQuery,
} from './analytics-api';
import { type ChartRange, METRIC_WINDOWS } from './analytics-windows';
import { useLoadFailureToast } from './use-load-failure-toast';

export const LOAD_FAILED_MESSAGE = 'Failed to load analytics data';

/** What a failed call shows: nothing (spec: on a load failure the chart empties). */
function shown<T>(query: { data: T | undefined; isError: boolean }): T | undefined {
  return query.isError ? undefined : query.data;
}

/**
 * Every call of the dashboard (spec section 7): the points summary, the metric windows and the chart's
 * range. When the chart shows 24 hours it shares the operations metric's query, so that is one call.
 */
export function useDashboardData(range: ChartRange) {
  const queryClient = useQueryClient();
  const summary = useQuery(pointsSummaryQuery());
  const operations = useQuery(operationsQuery(METRIC_WINDOWS.operations));
  const cards = useQuery(issuedCardsQuery());
  const activeUsers = useQuery(activeUsersQuery());
  // A range switch shows what was loaded for that range, however long ago (Refresh invalidates and reloads
  // every call); with the client's 10 s staleTime, switching back to 24 hours called again whenever the
  // shared query had aged past it, which made the "one call" depend on how fast the user (or a test) was.
  const chart = useQuery({ ...operationsQuery(range), staleTime: Number.POSITIVE_INFINITY });

  useLoadFailureToast([summary, operations, cards, activeUsers, chart], LOAD_FAILED_MESSAGE);

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: analyticsKeys.all }),
    [queryClient],
  );
  const refreshing = useIsFetching({ queryKey: analyticsKeys.all }) > 0;

  return {
    summary: { data: shown(summary), loading: summary.isPending },
    operations: { data: shown(operations), loading: operations.isPending },
    cards: { data: shown(cards), loading: cards.isPending },
    activeUsers: { data: shown(activeUsers), loading: activeUsers.isPending },
    chart: {
      data: shown(chart),
      loading: chart.isPending,
      failed: chart.isError,
      stale: chart.isPlaceholderData,
    },
    refresh,
    refreshing,
  };
}

export type DashboardData = ReturnType<typeof useDashboardData>;
