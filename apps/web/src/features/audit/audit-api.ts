import type { AuditEntry, AuditTargetType, Paged } from '@loyalty/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ServerTableParams } from '@/components/data-table';
import { apiClient } from '@/lib/api-client';

/** Spec section 7: the audit screen asks for 100 entries a page. */
export const AUDIT_PAGE_SIZE = 100;

export type AuditFilters = {
  username: string | undefined;
  targetType: AuditTargetType | undefined;
  /** From the address only (a link to one import's entry); the page shows it as a removable filter. */
  targetId: string | undefined;
};
export type AuditListParams = ServerTableParams<AuditFilters>;

export function auditListQuery(params: AuditListParams) {
  return queryOptions({
    queryKey: ['audit', 'list', params] as const,
    queryFn: ({ signal }) => apiClient.get<Paged<AuditEntry>>('/api/v1/audit', { query: params, signal }),
    placeholderData: keepPreviousData,
    // The screen explains a failure itself (permission state or sample-data banner).
    meta: { silent: true },
  });
}
