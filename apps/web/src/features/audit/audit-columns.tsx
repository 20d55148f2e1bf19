import { type AuditEntry, auditTargetLabels } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { EyeIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatTimestamp } from '@/lib/format';

function Dash() {
  return <span className="text-muted-foreground">—</span>;
}

/** Sortable ids are the server's sort fields (executedAt, username, targetType). */
export function auditColumns(onView: (entry: AuditEntry) => void): ColumnDef<AuditEntry>[] {
  return [
    {
      accessorKey: 'executedAt',
      header: 'Time',
      enableSorting: true,
      enableHiding: false,
      cell: ({ row }) => (
        <time dateTime={row.original.executedAt}>{formatTimestamp(row.original.executedAt)}</time>
      ),
    },
    {
      accessorKey: 'username',
      header: 'User',
      enableSorting: true,
      cell: ({ row }) => row.original.username ?? <Dash />,
    },
    {
      accessorKey: 'targetType',
      header: 'Type',
      enableSorting: true,
      cell: ({ row }) => <Badge variant="secondary">{auditTargetLabels[row.original.targetType]}</Badge>,
    },
    {
      accessorKey: 'message',
      header: 'Message',
      meta: { className: 'min-w-56 max-w-md whitespace-normal' },
    },
    {
      accessorKey: 'targetId',
      header: 'Target ID',
      cell: ({ row }) =>
        row.original.targetId ? (
          <span className="block max-w-36 truncate font-mono text-xs" title={row.original.targetId}>
            {row.original.targetId}
          </span>
        ) : (
          <Dash />
        ),
    },
    {
      id: 'details',
      header: () => <span className="sr-only">Details</span>,
      enableHiding: false,
      meta: { className: 'text-right' },
      cell: ({ row }) => (
        <Button variant="outline" size="sm" onClick={() => onView(row.original)}>
          <EyeIcon />
          View Details
        </Button>
      ),
    },
  ];
}
