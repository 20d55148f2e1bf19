import type { PaginationState, SortingState, Updater } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState } from 'react';

/** Spec section 9: tables show 10 rows per page unless a screen says otherwise. */
export const DEFAULT_TABLE_PAGE_SIZE = 10;
export const SEARCH_DEBOUNCE_MS = 300;

export type FilterValues = Record<string, string | number | boolean | undefined>;

export interface ServerTableOptions<F extends FilterValues> {
  pageSize?: number;
  /** e.g. `[{ id: 'createdAt', desc: true }]`; the column id is the server's sort field. */
  defaultSort?: SortingState;
  initialFilters?: F;
  searchDebounceMs?: number;
}

/** The list query of ADMIN-API.md: page (0-based), size, `sort=field,asc|desc`, search, filters. */
export type ServerTableParams<F extends FilterValues> = {
  page: number;
  size: number;
  sort?: string;
  search?: string;
} & F;

/** What DataTable reads and writes; the filters stay with the screen. */
export interface ServerTableControls {
  pagination: PaginationState;
  setPagination: (updater: Updater<PaginationState>) => void;
  sorting: SortingState;
  setSorting: (updater: Updater<SortingState>) => void;
  searchInput: string;
  setSearchInput: (value: string) => void;
}

export interface ServerTable<F extends FilterValues> extends ServerTableControls {
  search: string;
  filters: F;
  setFilter: <K extends keyof F>(key: K, value: F[K]) => void;
  /** Put this in the query key and pass it to the list call. */
  params: ServerTableParams<F>;
}

function apply<T>(updater: Updater<T>, old: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;
}

export function toSortParam(sorting: SortingState): string | undefined {
  const first = sorting[0];
  return first ? `${first.id},${first.desc ? 'desc' : 'asc'}` : undefined;
}

/** Holds page, sort, search (debounced) and filters of a server-side table; any change but paging goes to page 0. */
export function useServerTable<F extends FilterValues = Record<string, never>>(
  options: ServerTableOptions<F> = {},
): ServerTable<F> {
  const {
    pageSize = DEFAULT_TABLE_PAGE_SIZE,
    defaultSort = [],
    searchDebounceMs = SEARCH_DEBOUNCE_MS,
  } = options;
  const [pagination, setPaginationState] = useState<PaginationState>({ pageIndex: 0, pageSize });
  const [sorting, setSortingState] = useState<SortingState>(defaultSort);
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<F>(options.initialFilters ?? ({} as F));

  const firstPage = useCallback(() => setPaginationState((p) => ({ ...p, pageIndex: 0 })), []);

  useEffect(() => {
    const trimmed = searchInput.trim();
    if (trimmed === search) return;
    const timer = setTimeout(() => {
      setSearch(trimmed);
      firstPage();
    }, searchDebounceMs);
    return () => clearTimeout(timer);
  }, [searchInput, search, searchDebounceMs, firstPage]);

  const setPagination = useCallback(
    (updater: Updater<PaginationState>) => setPaginationState((old) => apply(updater, old)),
    [],
  );
  const setSorting = useCallback(
    (updater: Updater<SortingState>) => {
      setSortingState((old) => apply(updater, old));
      firstPage();
    },
    [firstPage],
  );
  const setFilter = useCallback(
    <K extends keyof F>(key: K, value: F[K]) => {
      setFilters((old) => ({ ...old, [key]: value }));
      firstPage();
    },
    [firstPage],
  );

  const params = useMemo(
    () =>
      ({
        ...filters,
        page: pagination.pageIndex,
        size: pagination.pageSize,
        sort: toSortParam(sorting),
        search: search || undefined,
      }) as ServerTableParams<F>,
    [filters, pagination, sorting, search],
  );

  return {
    pagination,
    setPagination,
    sorting,
    setSorting,
    searchInput,
    setSearchInput,
    search,
    filters,
    setFilter,
    params,
  };
}
