import type { Account, Operation } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { CardNumber } from '@/components/cards/card-number';
import { DataTable, fromQuery, OperationPoints, useServerTable } from '@/components/data-table';
import { OperationStatusBadge } from '@/components/operations/operation-status-badge';
import { OperationType } from '@/components/operations/operation-type';
import { SIGNED_POINTS_COLUMN_WIDTH } from '@/components/operations/signed-points';
import { buildUrl } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { AccountTableDialog } from './account-table-dialog';
import { accountOperationsQuery } from './accounts-api';

/** Spec section 9: the Operations dialog offers 10, 20, 50 or 100 rows, 10 by default. */
const PAGE_SIZES = [10, 20, 50, 100];

const columns: ColumnDef<Operation>[] = [
  {
    accessorKey: 'type',
    header: 'Type',
    cell: ({ row }) => <OperationType type={row.original.type} />,
  },
  {
    accessorKey: 'points',
    header: 'Points',
    meta: { width: SIGNED_POINTS_COLUMN_WIDTH, className: 'text-right' },
    cell: ({ row }) => <OperationPoints value={row.original.points} status={row.original.status} />,
  },
  {
    accessorKey: 'status',
    header: 'Status',
    cell: ({ row }) => <OperationStatusBadge status={row.original.status} />,
  },
  {
    accessorKey: 'cardNumber',
    header: 'Card',
    cell: ({ row }) => <CardNumber number={row.original.cardNumber} masked empty="—" />,
  },
  {
    accessorKey: 'createdAt',
    header: 'Date',
    cell: ({ row }) => formatDateTime(row.original.createdAt),
  },
  {
    id: 'reason',
    header: 'Reason',
    cell: ({ row }) => {
      const reason = row.original.meta.reason ?? row.original.meta.error;
      if (reason === undefined || reason === '') return <span className="text-muted-foreground">—</span>;
      return (
        <span className="block max-w-48 truncate" title={String(reason)}>
          {String(reason)}
        </span>
      );
    },
  },
];

function AccountOperationsPanel({ account }: { account: Account }) {
  const table = useServerTable({ pageSize: 10 });
  const query = useQuery(
    accountOperationsQuery({ accountId: account.id, page: table.params.page, size: table.params.size }),
  );
  return (
    <DataTable
      label={`Operations of ${account.clientId}`}
      exportList={{
        name: 'account-operations',
        url: buildUrl('/api/v1/operations', { accountId: account.id, sort: 'createdAt,desc' }),
      }}
      columns={columns}
      controls={table}
      getRowId={(operation) => operation.id}
      {...fromQuery(query)}
      pageSizeOptions={PAGE_SIZES}
    />
  );
}

/** Spec section 2 "Accounts": the Operations dialog of one account, newest first. */
export function AccountOperationsDialog({
  account,
  onClose,
}: {
  account: Account | null;
  onClose: () => void;
}) {
  return (
    <AccountTableDialog
      account={account}
      onClose={onClose}
      title="Operations"
      description="Points history of"
    >
      {(shown) => <AccountOperationsPanel account={shown} />}
    </AccountTableDialog>
  );
}
