import { useEffect, useRef, useState } from 'react';

export interface DataTableStatusProps {
  /** The page on screen; it keeps its identity while its data is the same (react-query's structural sharing). */
  page: { totalElements: number; totalPages: number } | undefined;
  /** The page index of the table's controls: the page the data settles for. */
  pageIndex: number;
  isLoading?: boolean;
  isFetching?: boolean;
}

/** "12 results, page 1 of 2", "1 result, page 1 of 1" or "No results". */
export function resultText(totalElements: number, pageIndex: number, totalPages: number): string {
  if (totalElements === 0) return 'No results';
  const results = `${totalElements} ${totalElements === 1 ? 'result' : 'results'}`;
  return `${results}, page ${pageIndex + 1} of ${Math.max(totalPages, 1)}`;
}

/**
 * The table's result said to screen readers (WCAG 4.1.3), once per answer to a new query: a search (after its
 * debounce), a filter, a sort or another page. Said when the new data has arrived and nothing is loading, so
 * neither a keystroke nor the previous page kept on screen meanwhile is announced; a background refetch that
 * brings the same data keeps the same page object and says nothing. The first page the table shows is not
 * said (the screen's heading speaks for it), nor a page beyond the last, which is corrected at once.
 * Each message is a new node, so a result worded like the one before (two searches with 3 results) is said
 * again.
 */
export function DataTableStatus({ page, pageIndex, isLoading, isFetching }: DataTableStatusProps) {
  const seen = useRef<object | undefined>(undefined);
  const [message, setMessage] = useState<{ text: string; id: number } | null>(null);

  useEffect(() => {
    if (!page || isLoading || isFetching || seen.current === page) return;
    if (pageIndex > Math.max(page.totalPages - 1, 0)) return;
    const first = seen.current === undefined;
    seen.current = page;
    if (first) return;
    const text = resultText(page.totalElements, pageIndex, page.totalPages);
    setMessage((old) => ({ text, id: (old?.id ?? 0) + 1 }));
  }, [page, pageIndex, isLoading, isFetching]);

  return (
    <div role="status" aria-live="polite" className="sr-only" data-testid="table-status">
      {message && <span key={message.id}>{message.text}</span>}
    </div>
  );
}
