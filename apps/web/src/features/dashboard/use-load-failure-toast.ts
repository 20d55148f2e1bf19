import { useEffect, useRef } from 'react';
import { handleServerError } from '@/lib/handle-server-error';

interface QueryState {
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  errorUpdatedAt: number;
}

/**
 * One toast per failed load, however many of the load's calls failed: it waits until none of the
 * queries is fetching (retries included), then reports the newest failures once. Failures from before
 * the screen was mounted are not reported again.
 */
export function useLoadFailureToast(queries: readonly QueryState[], title: string): void {
  const reportedUpTo = useRef(Date.now());
  const settled = queries.every((query) => !query.isFetching);
  const fresh = queries.filter((query) => query.isError && query.errorUpdatedAt > reportedUpTo.current);
  const newest = fresh.reduce((max, query) => Math.max(max, query.errorUpdatedAt), 0);
  const error = fresh[0]?.error;

  useEffect(() => {
    if (!settled || newest === 0) return;
    reportedUpTo.current = newest;
    handleServerError(error, { title });
  }, [settled, newest, error, title]);
}
