import type { Operation, OperationStatus, OperationType, Paged } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { apiClient } from '@/lib/api-client';

export type OperationFilters = { type: OperationType | undefined; status: OperationStatus | undefined };
export type OperationListParams = ServerTableParams<OperationFilters>;

export const operationsKeys = {
  all: ['operations'] as const,
  list: (params: OperationListParams) => ['operations', 'list', params] as const,
};

export function operationsListQuery(params: OperationListParams) {
  return queryOptions({
    queryKey: operationsKeys.list(params),
    queryFn: ({ signal }) => apiClient.get<Paged<Operation>>('/api/v1/operations', { query: params, signal }),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Failed to load operations' },
  });
}
