import {
  type BacktestRequest,
  type BacktestResponse,
  type CreateRulesetRequest,
  MAX_PAGE_SIZE,
  type Paged,
  type PosKey,
  type Ruleset,
  type RulesetStatus,
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

/**
 * `idempotencyKey`: the same key with the same body creates one ruleset, so sending it again after an answer
 * that never came (a lost connection, a 503 at COMMIT) cannot make a second, identical one.
 */
export function createRuleset({
  idempotencyKey,
  ...body
}: CreateRulesetRequest & { idempotencyKey: string }): Promise<Ruleset> {
  return apiClient.post<Ruleset>(RULESETS, body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

export function retireRuleset(id: string): Promise<Ruleset> {
  return apiClient.post<Ruleset>(`${RULESETS}/${encodeURIComponent(id)}/retire`);
}

/** The POS keys a rule may target (its stores), named for the form and the details. */
export function storesQuery() {
  return queryOptions({
    queryKey: ['rulesets', 'stores'] as const,
    queryFn: ({ signal }) => allPosKeys(signal),
    select: (keys) => keys.map((key) => ({ id: key.id, name: key.name })),
    staleTime: 60_000,
    meta: { errorTitle: 'Failed to load POS keys' },
  });
}

/**
 * Every POS key, page by page: a rule may target any store, and one missing here would be unselectable in the
 * form and shown by id in the details. Pages of the largest size keep it one request up to 200 keys.
 */
async function allPosKeys(signal: AbortSignal): Promise<PosKey[]> {
  // By id: a key created between two pages' reads shifts the order, and one could come twice.
  const keys = new Map<string, PosKey>();
  for (let page = 0; ; page += 1) {
    const answer = await apiClient.get<Paged<PosKey>>('/api/v1/pos-keys', {
      query: { page, size: MAX_PAGE_SIZE, sort: 'name,asc' },
      signal,
    });
    for (const key of answer.content) keys.set(key.id, key);
    if (page + 1 >= answer.totalPages || answer.content.length === 0) return [...keys.values()];
  }
}

/**
 * A backtest writes nothing (PROGRAMME-API.md §3), and 90 days of receipts at scale take longer than the
 * console's 30 s limit, which only exists so a write without an answer does not hold its dialog forever. Its
 * limit is 10 minutes: long past any real backtest, yet a connection that died silently still ends with
 * "Please try again" instead of a Run Backtest button disabled for good. Run again, it is the same question.
 */
export const BACKTEST_TIMEOUT_MS = 10 * 60_000;

export function backtestRuleset(id: string, body: BacktestRequest): Promise<BacktestResponse> {
  return apiClient.post<BacktestResponse>(`${RULESETS}/${encodeURIComponent(id)}/backtest`, body, {
    timeoutMs: BACKTEST_TIMEOUT_MS,
    writes: false,
  });
}
