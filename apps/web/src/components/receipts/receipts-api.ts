import type { ReceiptDetail } from '@loyalty/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const receiptsKeys = {
  all: ['receipts'] as const,
  ofOperation: (operationId: string) => ['receipts', 'operation', operationId] as const,
};

/** `GET /api/v1/receipts/operation/{id}`: a receipt never changes once written, so it stays cached. */
export function receiptQuery(operationId: string) {
  return queryOptions({
    queryKey: receiptsKeys.ofOperation(operationId),
    queryFn: ({ signal }) =>
      apiClient.get<ReceiptDetail>(`/api/v1/receipts/operation/${encodeURIComponent(operationId)}`, {
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { errorTitle: 'Failed to load receipt details' },
  });
}
