import type { PosKey } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { actionsColumn } from '@/components/data-table';
import { TruncatedText } from '@/components/text/user-text';
import { formatDate, formatDateTime } from '@/lib/format';
import { type PosKeyAction, PosKeyRowActions } from './pos-key-row-actions';
import { PosKeyStatusBadge } from './pos-key-status';

function Muted({ children }: { children: string }) {
  return <span className="text-muted-foreground">{children}</span>;
}

export interface PosKeyColumnOptions {
  onAction: (action: PosKeyAction, posKey: PosKey) => void;
  canManage: boolean;
  canReveal: boolean;
}

/** Column ids are the server's sort fields (name, address, status, createdAt, lastUsedAt). */
export function posKeyColumns({ onAction, canManage, canReveal }: PosKeyColumnOptions): ColumnDef<PosKey>[] {
  const columns: ColumnDef<PosKey>[] = [
    {
      accessorKey: 'name',
      header: 'Name',
      enableSorting: true,
      enableHiding: false,
      meta: { minWidth: 150 },
      cell: ({ row }) => <TruncatedText text={row.original.name} className="font-medium" />,
    },
    {
      accessorKey: 'address',
      header: 'Address',
      enableSorting: true,
      meta: { minWidth: 180 },
      cell: ({ row }) =>
        row.original.address ? <TruncatedText text={row.original.address} /> : <Muted>Not set</Muted>,
    },
    {
      accessorKey: 'status',
      header: 'Status',
      enableSorting: true,
      meta: { width: 110 },
      cell: ({ row }) => <PosKeyStatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'createdAt',
      header: 'Created',
      enableSorting: true,
      meta: { width: 120 },
      cell: ({ row }) => formatDate(row.original.createdAt),
    },
    {
      accessorKey: 'lastUsedAt',
      header: 'Last Used',
      enableSorting: true,
      meta: { width: 190 },
      cell: ({ row }) =>
        row.original.lastUsedAt ? formatDateTime(row.original.lastUsedAt) : <Muted>Never</Muted>,
    },
  ];
  if (canManage) {
    columns.push(
      actionsColumn((posKey) => (
        <PosKeyRowActions posKey={posKey} canReveal={canReveal} onAction={onAction} />
      )),
    );
  }
  return columns;
}
