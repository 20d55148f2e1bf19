import type { CreatePosKeyRequest, Paged, PosKey, PosKeyReveal, PosKeyStatus } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { apiClient } from '@/lib/api-client';

export type PosKeyFilters = { status: PosKeyStatus | undefined };
export type PosKeyListParams = ServerTableParams<PosKeyFilters>;

const POS_KEYS = '/api/v1/pos-keys';

export const posKeysKeys = {
  all: ['pos-keys'] as const,
  list: (params: PosKeyListParams) => ['pos-keys', 'list', params] as const,
};

export function posKeysListQuery(params: PosKeyListParams) {
  return queryOptions({
    queryKey: posKeysKeys.list(params),
    queryFn: ({ signal }) => apiClient.get<Paged<PosKey>>(POS_KEYS, { query: params, signal }),
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Failed to load POS keys' },
  });
}

/**
 * `idempotencyKey`: the same key with the same body creates one POS key, so sending it again after an answer
 * that never came gets the key made the first time instead of "This API key cannot be used".
 */
export function createPosKey({
  idempotencyKey,
  ...body
}: CreatePosKeyRequest & { idempotencyKey: string }): Promise<PosKey> {
  return apiClient.post<PosKey>(POS_KEYS, body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

export function setPosKeyStatus({ id, status }: { id: string; status: PosKeyStatus }): Promise<PosKey> {
  return apiClient.patch<PosKey>(`${POS_KEYS}/${encodeURIComponent(id)}`, { status });
}

/** Every call is an audited reveal on the server, so it is never cached or retried. */
export function revealPosKey(id: string): Promise<PosKeyReveal> {
  return apiClient.get<PosKeyReveal>(`${POS_KEYS}/${encodeURIComponent(id)}/reveal`);
}

/** Spec section 2 "POS Keys": the status filter's choices. */
export const posKeyStatusOptions: readonly { value: PosKeyStatus; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];
