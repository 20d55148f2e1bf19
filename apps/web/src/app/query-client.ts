import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '@/lib/api-client';
import { handleServerError } from '@/lib/handle-server-error';
import type { AppRequestMeta } from '@/lib/query-meta';

function report(error: unknown, meta: AppRequestMeta | undefined) {
  if (meta?.silent || (isApiError(error) && error.silent)) return;
  if (isApiError(error) && meta?.ignoreStatuses?.includes(error.status)) return;
  handleServerError(error, { title: meta?.errorTitle, context: meta?.errorContext });
}

/** Client errors (4xx) are answers, not glitches: only network failures and 5xx are retried, once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => report(error, mutation.meta),
    }),
    defaultOptions: {
      // Back in a tab, what is older than staleTime is asked again: another tab, or someone else, may have
      // changed it meanwhile. staleTime keeps switching back and forth from asking again each time.
      queries: { retry: shouldRetry, refetchOnWindowFocus: true, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}
