import type { CreateExcludedSkuRequest, ExcludedSku, Paged, Ruleset } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { apiClient } from '@/lib/api-client';

const RULESETS = '/api/v1/rulesets';
/** The chooser lists the newest rulesets first; the list endpoint's maximum page. */
const CHOOSER_SIZE = 200;

/** undefined: all categories; '': the SKUs without one ('(No category)'); otherwise that category. */
export type SkuFilters = { category: string | undefined };
export type SkuListParams = ServerTableParams<SkuFilters>;

// Under ['rulesets'] so that creating a ruleset refreshes the chooser too.
export const skuKeys = {
  chooser: ['rulesets', 'chooser'] as const,
  ruleset: (rulesetId: string) => ['rulesets', rulesetId] as const,
  list: (rulesetId: string, params: SkuListParams) => ['rulesets', rulesetId, 'skus', params] as const,
  categories: (rulesetId: string) => ['rulesets', rulesetId, 'categories'] as const,
};

const base = (rulesetId: string) => `${RULESETS}/${encodeURIComponent(rulesetId)}`;

export function rulesetChooserQuery() {
  return queryOptions({
    queryKey: skuKeys.chooser,
    queryFn: ({ signal }) =>
      apiClient.get<Paged<Ruleset>>(RULESETS, {
        query: { page: 0, size: CHOOSER_SIZE, sort: 'version,desc' },
        signal,
      }),
    meta: { errorTitle: 'Failed to load rulesets' },
  });
}

/**
 * Built by hand rather than with the client's `query`, which drops empty values: `category=` present but
 * empty is how the server is asked for the SKUs without a category.
 */
export function skuListUrl(rulesetId: string, params: SkuListParams): string {
  const qs = new URLSearchParams({ page: String(params.page), size: String(params.size) });
  if (params.sort) qs.set('sort', params.sort);
  if (params.search) qs.set('search', params.search);
  if (params.category !== undefined) qs.set('category', params.category);
  return `${base(rulesetId)}/excluded-skus?${qs.toString()}`;
}

export function skuListQuery(rulesetId: string, params: SkuListParams) {
  return queryOptions({
    queryKey: skuKeys.list(rulesetId, params),
    queryFn: ({ signal }) => apiClient.get<Paged<ExcludedSku>>(skuListUrl(rulesetId, params), { signal }),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Failed to load SKU exclusions' },
  });
}

/** Spec section 7: a category load failure is an empty list, silently. */
export function skuCategoriesQuery(rulesetId: string) {
  return queryOptions({
    queryKey: skuKeys.categories(rulesetId),
    queryFn: async ({ signal }) => {
      try {
        return await apiClient.get<string[]>(`${base(rulesetId)}/excluded-skus-categories`, {
          signal,
          silent: true,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        return [];
      }
    },
  });
}

export function addExcludedSku(rulesetId: string, body: CreateExcludedSkuRequest): Promise<ExcludedSku> {
  return apiClient.post<ExcludedSku>(`${base(rulesetId)}/excluded-skus`, body);
}

export function removeExcludedSku(rulesetId: string, sku: string): Promise<void> {
  return apiClient.delete(`${base(rulesetId)}/excluded-skus/${encodeURIComponent(sku)}`);
}
