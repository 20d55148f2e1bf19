import {
  type Account,
  type CreateAccountRequest,
  isErasedClientIdOf,
  type ManualAccrualRequest,
  type ManualAccrualResponse,
  type Operation,
  type Paged,
} from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { apiClient } from '@/lib/api-client';

export type AccountListParams = ServerTableParams<Record<string, never>>;

export interface AccountOperationsParams {
  accountId: string;
  page: number;
  size: number;
}

const ACCOUNTS = '/api/v1/accounts';

export const accountsKeys = {
  all: ['accounts'] as const,
  list: (params: AccountListParams) => ['accounts', 'list', params] as const,
};

export const operationsKeys = {
  all: ['operations'] as const,
  forAccount: (params: AccountOperationsParams) => ['operations', 'account', params] as const,
};

/** The labels of the spec's common handler (section 8): "Load accounts: …". */
export const accountErrorContext = {
  load: 'Load accounts',
  create: 'Create account',
  loadCards: 'Load account cards',
  loadOperations: 'Load account operations',
  issue: 'Issue card',
  block: 'Block card',
  reissue: 'Reissue card',
  accrual: 'Manual accrual',
  exportData: 'Export member data',
  erase: 'Erase member',
} as const;

export function accountsListQuery(params: AccountListParams) {
  return queryOptions({
    queryKey: accountsKeys.list(params),
    queryFn: ({ signal }) => apiClient.get<Paged<Account>>(ACCOUNTS, { query: params, signal }),
    placeholderData: keepPreviousData,
    meta: { errorContext: accountErrorContext.load },
  });
}

export function accountOperationsQuery(params: AccountOperationsParams) {
  return queryOptions({
    queryKey: operationsKeys.forAccount(params),
    queryFn: ({ signal }) =>
      apiClient.get<Paged<Operation>>('/api/v1/operations', {
        query: { ...params, sort: 'createdAt,desc' },
        signal,
      }),
    // The old page stays while the next one loads, but never another account's operations.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2].accountId === params.accountId ? previous : undefined,
    meta: { errorContext: accountErrorContext.loadOperations },
  });
}

/**
 * `idempotencyKey`: the same key with the same client ID creates one account, so sending it again after an
 * answer that never came gets that account back instead of "already exists" for one's own save.
 */
export function createAccount({
  idempotencyKey,
  ...body
}: CreateAccountRequest & { idempotencyKey: string }): Promise<Account> {
  return apiClient.post<Account>(ACCOUNTS, body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/** PROGRAMME-API §4: the member's data as one JSON document (ADMIN). */
export function memberExportUrl(accountId: string): string {
  return `${ACCOUNTS}/${encodeURIComponent(accountId)}/export`;
}

/**
 * Whether the member's data was erased (PROGRAMME-API §4): the account carries the client ID an erasure gives
 * it, as the server tells. Such an account takes no points by hand (409 ACCOUNT_ERASED).
 */
export function isErasedAccount(account: Pick<Account, 'id' | 'clientId'>): boolean {
  return isErasedClientIdOf(account.clientId, account.id);
}

export function eraseMember(accountId: string, confirm: string): Promise<Account> {
  return apiClient.post<Account>(`${ACCOUNTS}/${encodeURIComponent(accountId)}/erase`, { confirm });
}

/**
 * `idempotencyKey`: the same key with the same body is booked once, so sending a request again after an
 * answer that never came (a 503 at COMMIT, a proxy's timeout) cannot credit twice.
 */
export function addPoints({
  idempotencyKey,
  ...body
}: ManualAccrualRequest & { idempotencyKey: string }): Promise<ManualAccrualResponse> {
  return apiClient.post<ManualAccrualResponse>('/api/v1/admin/operations/manual-accrual', body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}
