import { type AuditEntry, auditListQuery as auditQuerySchema, auditTargetType } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { ForbiddenState } from '@/components/feedback/forbidden-state';
import { PageHeader } from '@/components/layout/page-header';
import { buildUrl, isApiError } from '@/lib/api-client';
import { AUDIT_PAGE_SIZE, type AuditFilters, auditListQuery } from './audit-api';
import { auditColumns, auditCsvColumns } from './audit-columns';
import { AuditDetailsDialog } from './audit-details-dialog';
import { AuditTargetFilter, AuditTypeFilter, AuditUserFilter } from './audit-filters';
import { sampleAuditPage } from './sample-audit';
import { SampleDataBanner } from './sample-data-banner';

/** Spec section 2 "Audit Log" (ADMIN only on the server). */
export function AuditPage() {
  // `?targetType=import` opens the log filtered (the Import screen links its entries so); `&targetId=` narrows
  // it to one target (an operation's import line links to its import's entry).
  const [searchParams] = useSearchParams();
  const linkedType = auditTargetType.safeParse(searchParams.get('targetType')).data;
  const table = useServerTable<AuditFilters>({
    pageSize: AUDIT_PAGE_SIZE,
    initialFilters: { username: undefined, targetType: linkedType, targetId: undefined },
    // The user filter keeps its own text, so it stays out of the address.
    inUrl: auditQuerySchema.omit({ username: true }),
  });
  const query = useQuery(auditListQuery(table.params));
  const [viewing, setViewing] = useState<AuditEntry | null>(null);
  const columns = useMemo(() => auditColumns(setViewing), []);
  const sample = useMemo(() => sampleAuditPage(), []);
  const { setFilter } = table;
  const onUser = useCallback((username: string | undefined) => setFilter('username', username), [setFilter]);

  const forbidden = isApiError(query.error) && query.error.status === 403;
  const failed = query.isError && !forbidden;
  const state = fromQuery(query);

  return (
    <>
      <PageHeader title="Audit Logs" description="Who changed what, and when." />
      {forbidden ? (
        <ForbiddenState message="You do not have permission to view audit logs." />
      ) : (
        <>
          {failed && <SampleDataBanner error={query.error} onRetry={state.onRefresh} />}
          <DataTable
            label="Audit logs"
            exportList={{ name: 'audit-logs', url: buildUrl('/api/v1/audit', table.params) }}
            columns={columns}
            controls={table}
            getRowId={(entry) => entry.id}
            {...state}
            page={failed ? sample : state.page}
            exportCsv={{ name: 'audit-logs', columns: auditCsvColumns }}
            searchable
            searchLabel="Search audit logs"
            searchPlaceholder="Search message or user..."
            filters={
              <>
                <AuditUserFilter onChange={onUser} />
                <AuditTypeFilter
                  value={table.filters.targetType}
                  onChange={(type) => table.setFilter('targetType', type)}
                />
                {table.filters.targetId && (
                  <AuditTargetFilter
                    targetId={table.filters.targetId}
                    onRemove={() => table.setFilter('targetId', undefined)}
                  />
                )}
              </>
            }
          />
        </>
      )}
      <AuditDetailsDialog entry={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
