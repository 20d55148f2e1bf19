import type { SortingState } from '@tanstack/react-table';

/**
 * The part of a list query schema of the contracts (`cardListQuery`, …) that the address is checked with:
 * a value the server would refuse with a 400 is never read from the address.
 */
export interface ListQuerySchema {
  shape: Record<string, { safeParse: (value: unknown) => { success: boolean } } | undefined>;
}

/** What a server table holds; `pageIndex` is 0-based, as the API's `page`. */
export interface TableState<F> {
  pageIndex: number;
  sorting: SortingState;
  search: string;
  filters: F;
}

/** The table's own parameters; every other key a filter may use must not be one of them. */
const RESERVED = new Set(['page', 'size', 'sort', 'search', 'format']);

export function toSortParam(sorting: SortingState): string | undefined {
  const first = sorting[0];
  return first ? `${first.id},${first.desc ? 'desc' : 'asc'}` : undefined;
}

/** The filters the address carries: those of the table that the list query knows. */
export function urlFilterKeys(filters: object, query: ListQuerySchema): string[] {
  return Object.keys(filters).filter((key) => !RESERVED.has(key) && query.shape[key] !== undefined);
}

function accepts(query: ListQuerySchema, key: string, value: string): boolean {
  const field = query.shape[key];
  return field === undefined || field.safeParse(value).success;
}

function readPage(raw: string | null): number {
  // The address counts pages as the pagination does ("Page 2 of 5" is page=2); the API counts from 0.
  if (raw === null || !/^\d{1,9}$/.test(raw)) return 0;
  return Math.max(Number(raw) - 1, 0);
}

function readSort(raw: string | null, query: ListQuerySchema, fallback: SortingState): SortingState {
  if (raw === null) return fallback;
  // `sort=` with no value: the user turned a default sort off.
  if (raw === '') return [];
  const match = /^([A-Za-z][\w.]*),(asc|desc)$/.exec(raw);
  if (!match?.[1] || !accepts(query, 'sort', raw)) return fallback;
  return [{ id: match[1], desc: match[2] === 'desc' }];
}

/**
 * The table's state in `params`; what is missing or refused (an unknown sort field, `page=-3`, a status
 * outside its options, a search too long) is the default, so an edited or old link opens the plain list.
 */
export function readTableUrl<F extends object>(
  params: URLSearchParams,
  query: ListQuerySchema,
  defaults: TableState<F>,
  /** The filters the address does not carry keep these values. */
  current: F = defaults.filters,
): TableState<F> {
  const search = params.get('search')?.trim() ?? '';
  const filters = { ...current } as Record<string, unknown>;
  for (const key of urlFilterKeys(defaults.filters, query)) {
    const raw = params.get(key);
    filters[key] = raw !== null && accepts(query, key, raw) ? raw : undefined;
  }
  return {
    pageIndex: readPage(params.get('page')),
    sorting: readSort(params.get('sort'), query, defaults.sorting),
    search: accepts(query, 'search', search) ? search : '',
    filters: filters as F,
  };
}

/** `params` with the table's state written over it; defaults are left out, so a fresh list keeps a bare URL. */
export function writeTableUrl<F extends object>(
  params: URLSearchParams,
  state: TableState<F>,
  query: ListQuerySchema,
  defaults: TableState<F>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string | undefined) =>
    value === undefined ? next.delete(key) : next.set(key, value);
  put('page', state.pageIndex > 0 ? String(state.pageIndex + 1) : undefined);
  const sort = toSortParam(state.sorting);
  put('sort', sort === toSortParam(defaults.sorting) ? undefined : (sort ?? ''));
  put('search', state.search || undefined);
  const filters = state.filters as Record<string, unknown>;
  for (const key of urlFilterKeys(defaults.filters, query)) {
    const value = filters[key];
    put(key, value === undefined || value === null ? undefined : String(value));
  }
  return next;
}
