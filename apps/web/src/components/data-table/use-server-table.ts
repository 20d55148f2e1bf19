import type { PaginationState, SortingState, Updater } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { createTableStore } from './table-store';
import { type ListQuerySchema, type TableState, toSortParam, writeTableUrl } from './table-url';

export { type ListQuerySchema, toSortParam } from './table-url';

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
  /**
   * A screen's main list only (one table per address; never a dialog's): page, sort, search and the filters
   * that this list query of the contracts knows live in the address (`?page=2&sort=number,asc&search=…`),
   * so Back from a drill-down, a reload or a shared link shows the same list. Values the schema refuses are
   * ignored; leave a filter out of the schema (`.omit`) to keep it in the table alone.
   */
  inUrl?: ListQuerySchema;
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
  /**
   * `replace`: a correction (a page beyond the last), not a step Back should return to: it replaces the entry,
   * or goes back to the one before when that is the corrected list already.
   */
  setPagination: (updater: Updater<PaginationState>, options?: { replace?: boolean }) => void;
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

/** How a change is kept in history: a step (a page), in place (search, sort, filter), or a correction. */
type History = 'push' | 'replace' | 'correct';

/** A page the table pushed remembers the address it was pushed from, so a correction can tell a step back. */
const PUSHED_FROM = 'serverTablePushedFrom';
type PushedState = { [PUSHED_FROM]: string };

/** The address the current history entry was pushed from by a table; React Router keeps `state` in `usr`. */
function pushedFrom(): string | undefined {
  const usr = (window.history.state as { usr?: Partial<PushedState> } | null)?.usr;
  return typeof usr?.[PUSHED_FROM] === 'string' ? usr[PUSHED_FROM] : undefined;
}

/** An empty sort where the server has a default is not a state it has: it is the default (useServerTable). */
function withDefault(sorting: SortingState, old: SortingState, fallback: SortingState): SortingState {
  if (sorting.length > 0 || fallback.length === 0) return sorting;
  const [first] = fallback;
  // A header cycling past its last state: from another column's sort back to the default; on the default
  // column itself (desc, whose next step would be "unsorted"), to the other direction.
  if (first && toSortParam(old) === toSortParam(fallback)) return [{ ...first, desc: !first.desc }];
  return fallback;
}

function apply<T>(updater: Updater<T>, old: T): T {
  return typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;
}

/** Holds page, sort, search (debounced) and filters of a server-side table; any change but paging goes to page 0. */
export function useServerTable<F extends FilterValues = Record<string, never>>(
  options: ServerTableOptions<F> = {},
): ServerTable<F> {
  const { pageSize = DEFAULT_TABLE_PAGE_SIZE, searchDebounceMs = SEARCH_DEBOUNCE_MS } = options;
  // Fixed for the table's life, as the defaults: a schema built inline (`.omit(…)`) is new on every render.
  const [inUrl] = useState(options.inUrl);
  const [defaults] = useState<TableState<F>>(() => ({
    pageIndex: 0,
    sorting: options.defaultSort ?? [],
    search: '',
    filters: options.initialFilters ?? ({} as F),
  }));
  const [size, setSize] = useState(pageSize);
  const { pathname, search: initialSearch } = useLocation();
  const navigate = useNavigate();
  // The state is the table's; with `inUrl` an address it did not write (Back, Forward, a link) is read into
  // it. Deriving it from the router's location instead lagged a write (the router renders one in a
  // transition): a second change in that gap started from the old address, and Back before the router had
  // rendered the new page showed no change at all (table-store.ts).
  const [store] = useState(() => createTableStore({ inUrl, defaults, path: pathname, initialSearch }));
  const state = useSyncExternalStore(store.subscribe, store.read);

  const change = useCallback(
    (update: (old: TableState<F>) => TableState<F>, history: History) => {
      const old = store.read();
      const next = update(old);
      if (next === old) return;
      // Null once the user has left (a link is on its way): the write would land on the page they went to.
      const here = store.address();
      if (inUrl && here !== null) {
        // Composed over the browser's address, the newest there is, and never a second entry equal to it.
        const written = writeTableUrl(new URLSearchParams(here), next, inUrl, defaults).toString();
        if (written !== here) {
          if (history === 'correct' && pushedFrom() === written) {
            // The entry before is the corrected list already (Next to a page deleted meanwhile): replacing
            // this one would leave two equal entries in a row, and the first Back would show no change.
            navigate(-1);
          } else {
            navigate(
              { pathname: store.path, search: written ? `?${written}` : '' },
              history === 'push'
                ? { state: { [PUSHED_FROM]: here } satisfies PushedState }
                : { replace: true },
            );
          }
        }
      }
      store.commit(next);
    },
    [inUrl, defaults, store, navigate],
  );

  const [searchInput, setSearchInput] = useState(state.search);
  // Back or Forward brought another search: the box shows it (typing never lands here: it wrote that search).
  const [shownSearch, setShownSearch] = useState(state.search);
  if (state.search !== shownSearch) {
    setShownSearch(state.search);
    if (searchInput.trim() !== state.search) setSearchInput(state.search);
  }

  const { search } = state;
  useEffect(() => {
    const trimmed = searchInput.trim();
    if (trimmed === search) return;
    const timer = setTimeout(() => {
      change((old) => ({ ...old, search: trimmed, pageIndex: 0 }), 'replace');
    }, searchDebounceMs);
    return () => clearTimeout(timer);
  }, [searchInput, search, searchDebounceMs, change]);

  const pagination = useMemo(() => ({ pageIndex: state.pageIndex, pageSize: size }), [state.pageIndex, size]);
  const setPagination = useCallback(
    (updater: Updater<PaginationState>, { replace = false }: { replace?: boolean } = {}) => {
      const next = apply(updater, { pageIndex: store.read().pageIndex, pageSize: size });
      setSize(next.pageSize);
      // A page is a step Back returns to.
      change((s) => ({ ...s, pageIndex: next.pageIndex }), replace ? 'correct' : 'push');
    },
    [size, change, store],
  );
  const setSorting = useCallback(
    (updater: Updater<SortingState>) =>
      change(
        (old) => ({
          ...old,
          sorting: withDefault(apply(updater, old.sorting), old.sorting, defaults.sorting),
          pageIndex: 0,
        }),
        'replace',
      ),
    [change, defaults],
  );
  const setFilter = useCallback(
    <K extends keyof F>(key: K, value: F[K]) =>
      change(
        // The same value again (a filter reporting its initial value) keeps the page.
        (old) =>
          old.filters[key] === value
            ? old
            : { ...old, filters: { ...old.filters, [key]: value }, pageIndex: 0 },
        'replace',
      ),
    [change],
  );

  const { filters, sorting, pageIndex } = state;
  const params = useMemo(
    () =>
      ({
        ...filters,
        page: pageIndex,
        size,
        sort: toSortParam(sorting),
        search: search || undefined,
      }) as ServerTableParams<F>,
    [filters, pageIndex, size, sorting, search],
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
