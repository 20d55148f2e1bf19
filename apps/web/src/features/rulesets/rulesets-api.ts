import type {
  BacktestRequest,
  BacktestResponse,
  CreateRulesetRequest,
  Paged,
  PosKey,
  Ruleset,
  RulesetStatus,
} from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { apiClient } from '@/lib/api-client';

export const RULESETS = '/api/v1/rulesets';

export type RulesetFilters = { status: RulesetStatus | undefined };
export type RulesetListParams = ServerTableParams<RulesetFilters>;

/** Everything under ['rulesets'] (lists, the SKU screen's chooser, its SKUs) refreshes after a create. */
export const rulesetsKeys = {
  all: ['rulesets'] as const,
  list: (params: RulesetListParams) => ['rulesets', 'list', params] as const,
};

export function rulesetsListQuery(params: RulesetListParams) {
  return queryOptions({
    queryKey: rulesetsKeys.list(params),
    queryFn: ({ signal }) => apiClient.get<Paged<Ruleset>>(RULESETS, { query: params, signal }),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Failed to load rulesets' },
  });
}

export function createRuleset(body: CreateRulesetRequest): Promise<Ruleset> {
  return apiClient.post<Ruleset>(RULESETS, body);
}

export function retireRuleset(id: string): Promise<Ruleset> {
  return apiClient.post<Ruleset>(`${RULESETS}/${encodeURIComponent(id)}/retire`);
}

/** The POS keys a rule may target (its stores), named for the form and the details. */
export function storesQuery() {
  return queryOptions({
    queryKey: ['rulesets', 'stores'] as const,
    queryFn: ({ signal }) =>
      apiClient.get<Paged<PosKey>>('/api/v1/pos-keys', { query: { size: 200, sort: 'name,asc' }, signal }),
    select: (page) => page.content.map((key) => ({ id: key.id, name: key.name })),
    staleTime: 60_000,
    meta: { errorTitle: 'Failed to load POS keys' },
  });
}

export function backtestRuleset(id: string, body: BacktestRequest): Promise<BacktestResponse> {
  return apiClient.post<BacktestResponse>(`${RULESETS}/${encodeURIComponent(id)}/backtest`, body);
}
