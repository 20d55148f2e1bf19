import { operationListQuery } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { PageHeader } from '@/components/layout/page-header';
import { ReceiptDialog } from '@/components/receipts/receipt-dialog';
import { useReceiptDialog } from '@/components/receipts/use-receipt-dialog';
import { buildUrl } from '@/lib/api-client';
import { OperationStatusFilter, OperationTypeFilter } from './operation-filters';
import { type OperationFilters, operationsListQuery } from './operations-api';
import { operationColumns } from './operations-columns';

/** Spec section 2 "Operations History": every role reads it; newest first. */
export function OperationsPage() {
  const table = useServerTable<OperationFilters>({
    initialFilters: { type: undefined, status: undefined },
    defaultSort: [{ id: 'createdAt', desc: true }],
    inUrl: operationListQuery,
  });
  const query = useQuery(operationsListQuery(table.params));
  const receipt = useReceiptDialog();
  const columns = useMemo(
    () => operationColumns({ onViewReceipt: receipt.view, loadingReceiptOf: receipt.loadingOf }),
    [receipt.view, receipt.loadingOf],
  );

  return (
    <>
      <PageHeader
        title="Operations History"
        description="Every accrual, redemption, hold, adjustment and expiry."
      />
      <DataTable
        label="Operations"
        exportList={{ name: 'operations', url: buildUrl('/api/v1/operations', table.params) }}
        columns={columns}
        controls={table}
        getRowId={(operation) => operation.id}
        {...fromQuery(query)}
        errorText="Failed to load operations"
        searchable
        searchLabel="Search operations"
        searchPlaceholder="Card number or operation ID"
        filters={
          <>
            <OperationTypeFilter
              value={table.filters.type}
              onChange={(type) => table.setFilter('type', type)}
            />
            <OperationStatusFilter
              value={table.filters.status}
              onChange={(status) => table.setFilter('status', status)}
            />
          </>
        }
      />
      <ReceiptDialog {...receipt.dialogProps} />
    </>
  );
}
