import { hashKey, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ServerTableControls } from './use-server-table';

/** A list's key with its page left out: `['users', 'list', {…params, page}]` → the same list at any page. */
function listHash(key: QueryKey): string {
  return hashKey(
    key.map((part) =>
      part !== null && typeof part === 'object' && 'page' in part ? { ...part, page: undefined } : part,
    ),
  );
}

/**
 * A page that no longer exists (rows deleted, on this console or elsewhere) falls back to the last one, or to
 * the first when nothing is left ("Page 2 of 1 (0 total)" is no page). The answer that said so is newer than
 * what is cached for the other pages of the list: those are dropped first, so the page fallen back to is
 * fetched, never shown from a copy that still has the deleted rows and the old page count.
 *
 * Only on an answer for the page asked: while one is on its way a list may still show the previous query's
 * rows (keepPreviousData), and Back from a one-page search to page 2 of the whole list would be cut to page 1.
 */
export function usePageCorrection(
  page: { totalPages: number } | undefined,
  isFetching: boolean | undefined,
  controls: ServerTableControls,
) {
  const queryClient = useQueryClient();
  const { pageIndex } = controls.pagination;
  useEffect(() => {
    if (page === undefined || isFetching) return;
    const last = Math.max(page.totalPages - 1, 0);
    if (pageIndex <= last) return;
    const cache = queryClient.getQueryCache();
    // The query that answered: the page's data is its own (a list's key holds its params, page included).
    const answered = cache.findAll({ predicate: (query) => query.state.data === page })[0];
    if (answered) {
      const list = listHash(answered.queryKey);
      for (const query of cache.findAll({ type: 'inactive' })) {
        if (listHash(query.queryKey) === list) cache.remove(query);
      }
    }
    // Not a step of history: Back must not return to the page that is gone, only to be sent here again.
    controls.setPagination((p) => ({ ...p, pageIndex: last }), { replace: true });
  }, [page, pageIndex, isFetching, controls, queryClient]);
}
