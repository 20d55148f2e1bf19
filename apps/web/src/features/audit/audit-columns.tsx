import { type AuditEntry, auditTargetLabels } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { EyeIcon } from 'lucide-react';
import { actionsColumn, type CsvColumn, DateTimeCell, IdCell } from '@/components/data-table';
import { ClientLink } from '@/components/links/client-link';
import { WrappedText } from '@/components/text/user-text';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

/** Targets whose id the client page resolves to one client (an account, its cards, its operations). */
const clientTargets = new Set(['account', 'card', 'operation']);

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
      meta: { width: 112 },
      cell: ({ row }) => <DateTimeCell value={row.original.executedAt} seconds />,
    },
    {
      accessorKey: 'username',
      header: 'User',
      enableSorting: true,
      meta: { width: 110 },
      // Wraps, whole: two long e-mail usernames cut to one line (or clamped to two) read the same.
      cell: ({ row }) => (row.original.username ? <WrappedText text={row.original.username} /> : <Dash />),
    },
    {
      accessorKey: 'targetType',
      header: 'Type',
      enableSorting: true,
      meta: { width: 104 },
      cell: ({ row }) => <Badge variant="secondary">{auditTargetLabels[row.original.targetType]}</Badge>,
    },
    {
      accessorKey: 'message',
      header: 'Message',
      meta: { minWidth: 200, className: 'whitespace-normal' },
      cell: ({ row }) => (
        <span className="line-clamp-2 [overflow-wrap:anywhere]" title={row.original.message}>
          {row.original.message}
        </span>
      ),
    },
    {
      accessorKey: 'targetId',
      header: 'Target ID',
      meta: { width: 140 },
      cell: ({ row }) => {
        const { targetId, targetType } = row.original;
        return (
          <IdCell value={targetId} label="target ID">
            {targetId && clientTargets.has(targetType) ? (
              <ClientLink to={targetId}>{targetId}</ClientLink>
            ) : null}
          </IdCell>
        );
      },
    },
    // The row's action, in the actions column: in reach (sticky) when the table scrolls on a phone.
    actionsColumn(
      (entry) => (
        <Button variant="outline" size="sm" onClick={() => onView(entry)}>
          <EyeIcon />
          View Details
        </Button>
      ),
      // The button (144 px) and the cell's padding: at 136 its right edge and border were cut off.
      { width: 160, header: 'Details' },
    ),
  ];
}

/** "Export selected" on Audit Logs: the states before and after as JSON text. */
export const auditCsvColumns: CsvColumn<AuditEntry>[] = [
  { header: 'Time', value: (entry) => entry.executedAt },
  { header: 'User', value: (entry) => entry.username },
  { header: 'Type', value: (entry) => entry.targetType },
  { header: 'Target ID', value: (entry) => entry.targetId },
  { header: 'Message', value: (entry) => entry.message },
  { header: 'Before', value: (entry) => (entry.source == null ? '' : JSON.stringify(entry.source)) },
  { header: 'After', value: (entry) => (entry.dest == null ? '' : JSON.stringify(entry.dest)) },
];
