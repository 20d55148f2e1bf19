import type { Account, Operation } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { ReceiptTextIcon } from 'lucide-react';
import { useMemo } from 'react';
import { CardNumber } from '@/components/cards/card-number';
import { DataTable, fromQuery, OperationPoints, useServerTable } from '@/components/data-table';
import { OperationStatusBadge } from '@/components/operations/operation-status-badge';
import { OperationType } from '@/components/operations/operation-type';
import { SIGNED_POINTS_COLUMN_WIDTH } from '@/components/operations/signed-points';
import { ReceiptDialog } from '@/components/receipts/receipt-dialog';
import { useReceiptDialog } from '@/components/receipts/use-receipt-dialog';
import { Button } from '@/components/ui/button';
import { buildUrl } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { clientOperationsQuery } from './client-api';
import { ClientSection } from './client-section';

function Dash() {
  return <span className="text-muted-foreground">—</span>;
}

function Truncated({ text, className }: { text: string | null | undefined; className?: string }) {
  if (!text) return <Dash />;
  return (
    <span className={`block max-w-48 truncate ${className ?? ''}`} title={text}>
      {text}
    </span>
  );
}

const when: ColumnDef<Operation> = {
  id: 'createdAt',
  header: 'Date',
  // Each fixed width holds its widest content in DejaVu Sans (the widest font of the stack) with the cell's
  // padding: 'Dec 28, 2030, 12:59 PM', 'Redemption' with its icon, 'Completed', '****9066'. Together with
  // Points, POS and Details they fit the 974 px a page has at 1280, so Operations no longer scrolls sideways.
  meta: { width: 188 },
  cell: ({ row }) => <span className="whitespace-nowrap">{formatDateTime(row.original.createdAt)}</span>,
};
const points: ColumnDef<Operation> = {
  id: 'points',
  header: 'Points',
  meta: { width: SIGNED_POINTS_COLUMN_WIDTH, className: 'text-right' },
  cell: ({ row }) => <OperationPoints value={row.original.points} status={row.original.status} />,
};
const status: ColumnDef<Operation> = {
  id: 'status',
  header: 'Status',
  meta: { width: 108 },
  cell: ({ row }) => <OperationStatusBadge status={row.original.status} />,
};
const card: ColumnDef<Operation> = {
  id: 'card',
  header: 'Card',
  meta: { width: 92 },
  cell: ({ row }) => <CardNumber number={row.original.cardNumber} masked empty="—" />,
};
const pos: ColumnDef<Operation> = {
  id: 'pos',
  header: 'POS',
  // A name cut with its tooltip, as on /operations: its width went to whole points.
  meta: { minWidth: 96 },
  cell: ({ row }) => <Truncated text={row.original.posName ?? row.original.posAddress} />,
};

/**
 * Under the one line of Details, worded as /operations' Details (features/operations/operation-format.ts;
 * features share no files): what a return could not take back, so a partial recovery does not read as a
 * full one. (The refused writes that carry only the id they asked for are bound to no account: not here.)
 */
function shortfallNote(meta: Operation['meta']): string | null {
  if (meta.shortfall === undefined || meta.shortfall === '') return null;
  return `Shortfall: ${formatPoints(meta.shortfall as number | string)}`;
}

const operationColumns: ColumnDef<Operation>[] = [
  when,
  {
    id: 'type',
    header: 'Type',
    meta: { width: 124 },
    cell: ({ row }) => <OperationType type={row.original.type} />,
  },
  points,
  status,
  card,
  pos,
  {
    id: 'details',
    header: 'Details',
    meta: { minWidth: 180 },
    cell: ({ row }) => {
      const { reason, error, receipt } = row.original.meta;
      const text = error ?? reason ?? (receipt === undefined ? null : `Receipt ${receipt}`);
      const shortfall = shortfallNote(row.original.meta);
      const main = (
        <Truncated text={text === null ? null : String(text)} className={error ? 'text-destructive' : ''} />
      );
      if (shortfall === null) return main;
      return (
        <div className="min-w-0">
          {main}
          <Truncated text={shortfall} className="text-xs font-medium text-warning-foreground" />
        </div>
      );
    },
  },
];

/** Every operation of the account, newest first, paged by the server (operations_account_idx). */
export function ClientOperationsSection({ account }: { account: Account }) {
  const table = useServerTable({ pageSize: 10 });
  const query = useQuery(
    clientOperationsQuery({ accountId: account.id, page: table.params.page, size: table.params.size }),
  );
  return (
    <ClientSection id="operations" title="Operations" total={query.data?.totalElements}>
      <DataTable
        label={`Operations of ${account.clientId}`}
        exportList={{
          name: 'client-operations',
          url: buildUrl('/api/v1/operations', { accountId: account.id, sort: 'createdAt,desc' }),
        }}
        columns={operationColumns}
        controls={table}
        getRowId={(operation) => operation.id}
        {...fromQuery(query)}
        errorText="Failed to load operations"
        emptyText="No operations yet"
      />
    </ClientSection>
  );
}

/** The receipts the client earned points on: the account's accruals, each opening the receipt view. */
export function ClientReceiptsSection({ account }: { account: Account }) {
  const table = useServerTable({ pageSize: 5 });
  const query = useQuery(
    clientOperationsQuery({
      accountId: account.id,
      type: 'accrual',
      status: 'completed',
      page: table.params.page,
      size: table.params.size,
    }),
  );
  const receipt = useReceiptDialog();
  const columns = useMemo<ColumnDef<Operation>[]>(
    () => [
      when,
      {
        id: 'receipt',
        header: 'Receipt',
        // 128 and a 140 px button column: with whole points the receipts still fit 1280 px with the sidebar.
        meta: { minWidth: 128 },
        cell: ({ row }) => (
          <Truncated
            text={row.original.meta.receipt === undefined ? null : String(row.original.meta.receipt)}
            className="font-mono text-xs"
          />
        ),
      },
      card,
      pos,
      points,
      status,
      {
        id: 'view',
        header: () => <span className="sr-only">Receipt</span>,
        meta: { width: 140, className: 'text-right' },
        cell: ({ row }) => (
          <Button
            variant="outline"
            size="sm"
            className="h-7 px-2 text-xs"
            onClick={() => receipt.view(row.original)}
            aria-label={`View receipt ${row.original.meta.receipt ?? ''}`.trim()}
          >
            <ReceiptTextIcon />
            View Receipt
          </Button>
        ),
      },
    ],
    [receipt.view],
  );
  return (
    <ClientSection id="receipts" title="Receipts" total={query.data?.totalElements}>
      <DataTable
        label={`Receipts of ${account.clientId}`}
        exportList={{
          name: 'client-receipts',
          url: buildUrl('/api/v1/operations', {
            accountId: account.id,
            type: 'accrual',
            status: 'completed',
            sort: 'createdAt,desc',
          }),
        }}
        columns={columns}
        controls={table}
        getRowId={(operation) => operation.id}
        {...fromQuery(query)}
        errorText="Failed to load receipts"
        emptyText="No receipts yet"
        pageSizeOptions={[5, 10, 20]}
      />
      <ReceiptDialog {...receipt.dialogProps} />
    </ClientSection>
  );
}
