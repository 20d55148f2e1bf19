import type { Card } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { CardNumber } from '@/components/cards/card-number';
import { CardStatusBadge } from '@/components/cards/card-status-badge';
import { formatDate } from '@/lib/format';
import { type CardAction, CardRowActions } from './card-row-actions';

function BlockedCell({ card }: { card: Card }) {
  if (!card.blockedAt && !card.blockedReason) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="flex max-w-56 flex-col">
      <span>{formatDate(card.blockedAt)}</span>
      {card.blockedReason && (
        <span className="truncate text-xs text-muted-foreground" title={card.blockedReason}>
          {card.blockedReason}
        </span>
      )}
    </div>
  );
}

/** Column ids are the server's sort fields (number, createdAt). */
export function cardColumns(
  onAction: (action: CardAction, card: Card) => void,
  canManage: boolean,
): ColumnDef<Card>[] {
  const columns: ColumnDef<Card>[] = [
    {
      accessorKey: 'number',
      header: 'Card Number',
      enableSorting: true,
      enableHiding: false,
      cell: ({ row }) => <CardNumber number={row.original.number} className="font-medium" />,
    },
    {
      accessorKey: 'accountId',
      header: 'Account ID',
      cell: ({ row }) => (
        <span
          className="block max-w-40 truncate font-mono text-xs xl:max-w-none"
          title={row.original.accountId}
        >
          {row.original.accountId}
        </span>
      ),
    },
    {
      accessorKey: 'status',
      header: 'Status',
      cell: ({ row }) => <CardStatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'createdAt',
      header: 'Issued',
      enableSorting: true,
      cell: ({ row }) => formatDate(row.original.issuedAt),
    },
    {
      accessorKey: 'blockedAt',
      header: 'Blocked',
      cell: ({ row }) => <BlockedCell card={row.original} />,
    },
  ];
  if (canManage) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableHiding: false,
      meta: { className: 'w-12 text-right' },
      cell: ({ row }) => <CardRowActions card={row.original} onAction={onAction} />,
    });
  }
  return columns;
}
