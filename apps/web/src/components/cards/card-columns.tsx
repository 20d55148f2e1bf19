import type { Card } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { formatDate } from '@/lib/format';
import { CardStatusBadge } from './card-status-badge';

/** The block date over its reason (cut to the column, whole in the tooltip), or a dash. */
export function BlockedCell({ card }: { card: Card }) {
  if (!card.blockedAt && !card.blockedReason) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="flex min-w-0 flex-col">
      <span>{formatDate(card.blockedAt)}</span>
      {card.blockedReason && (
        <span className="truncate text-xs text-muted-foreground" title={card.blockedReason}>
          {card.blockedReason}
        </span>
      )}
    </div>
  );
}

/**
 * Status, Issued and Blocked: what every card table (Loyalty Cards, an account's Cards dialog, the client
 * page) shows after the card number. With `sortable`, Issued sorts on the server: its id is the sort field.
 */
export function cardStateColumns<T extends Card>({ sortable = false } = {}): ColumnDef<T>[] {
  return [
    {
      id: 'status',
      accessorFn: (card) => card.status,
      header: 'Status',
      meta: { width: 100 },
      cell: ({ row }) => <CardStatusBadge status={row.original.status} />,
    },
    {
      id: 'createdAt',
      accessorFn: (card) => card.issuedAt,
      header: 'Issued',
      enableSorting: sortable,
      meta: { width: 120 },
      cell: ({ row }) => formatDate(row.original.issuedAt),
    },
    {
      id: 'blockedAt',
      accessorFn: (card) => card.blockedAt,
      header: 'Blocked',
      meta: { minWidth: 160 },
      cell: ({ row }) => <BlockedCell card={row.original} />,
    },
  ];
}
