import { unstorableText } from '@loyalty/contracts';
import type { SortingState } from '@tanstack/react-table';

/**
 * The part of a list query schema of the contracts (`cardListQuery`, …) that the address is checked with:
 * a value the server would refuse with a 400 is never read from the address.
 */
export interface ListQuerySchema {
  shape: Record<string, { safeParse: (value: unknown) => { success: boolean; data?: unknown } } | undefined>;
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

/**
 * The value as the server reads `value` for `key`: the schema's parsed form (`active` is the status `Active`,
 * `CLIENTID,desc` the sort `{ field: 'clientId', direction: 'desc' }`), so the controls show what the server
 * does; undefined when the server would refuse it with a 400.
 */
function parse(query: ListQuerySchema, key: string, value: string): { data: unknown } | undefined {
  if (unstorableText(value)) return undefined;
  const field = query.shape[key];
  if (field === undefined) return { data: value };
  const parsed = field.safeParse(value);
  return parsed.success ? { data: parsed.data } : undefined;
}

/** A filter's value as the table holds it (a string); the raw text when the schema made something else of it. */
function filterValue(parsed: { data: unknown } | undefined, raw: string): unknown {
  if (parsed === undefined) return undefined;
  const { data } = parsed;
  return typeof data === 'string' || typeof data === 'number' || typeof data === 'boolean' ? data : raw;
}

function readPage(raw: string | null): number {
  // The address counts pages as the pagination does ("Page 2 of 5" is page=2); the API counts from 0.
  if (raw === null || !/^\d{1,9}$/.test(raw)) return 0;
  return Math.max(Number(raw) - 1, 0);
}

function readSort(raw: string | null, query: ListQuerySchema, fallback: SortingState): SortingState {
  // No sort, or `sort=` (an older link from when a header could turn a default sort off): the server sorts by
  // its default, which is the table's.
  if (raw === null || raw === '') return fallback;
  // The schema's field names the column (`sortParam` of the contracts: any case, direction optional).
  const data = parse(query, 'sort', raw)?.data as { field?: unknown; direction?: unknown } | undefined;
  if (typeof data?.field !== 'string') return fallback;
  return [{ id: data.field, desc: data.direction === 'desc' }];
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
    filters[key] = raw === null ? undefined : filterValue(parse(query, key, raw), raw);
  }
  const searched = parse(query, 'search', search)?.data;
  return {
    pageIndex: readPage(params.get('page')),
    sorting: readSort(params.get('sort'), query, defaults.sorting),
    search: typeof searched === 'string' ? searched : '',
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
  // Never empty: the table has no unsorted state where the server has a default sort (useServerTable).
  put('sort', sort === toSortParam(defaults.sorting) ? undefined : sort);
  put('search', state.search || undefined);
  const filters = state.filters as Record<string, unknown>;
  for (const key of urlFilterKeys(defaults.filters, query)) {
    const value = filters[key];
    put(key, value === undefined || value === null ? undefined : String(value));
  }
  return next;
}
