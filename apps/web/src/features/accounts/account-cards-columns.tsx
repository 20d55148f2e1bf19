import type { Card } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { BanIcon, RefreshCcwIcon } from 'lucide-react';
import { CardNumber } from '@/components/cards/card-number';
import { CardStatusBadge } from '@/components/cards/card-status-badge';
import { IdCell } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/lib/format';

export type CardAction = 'block' | 'reissue';

/** Spec section 4 "Card": active → Block or Reissue; blocked → Reissue only; pending → nothing. */
function CardActions({ card, onAction }: { card: Card; onAction: (action: CardAction, card: Card) => void }) {
  if (card.status === 'pending') return null;
  return (
    <div className="flex justify-end gap-2">
      {card.status === 'active' && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onAction('block', card)}
          aria-label={`Block card ${card.number}`}
        >
          <BanIcon />
          Block
        </Button>
      )}
      {/* A card is replaced once: no Reissue on a card that already has a successor. */}
      {(card.status === 'active' || card.status === 'blocked') && !card.replacedBy && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onAction('reissue', card)}
          aria-label={`Reissue card ${card.number}`}
        >
          <RefreshCcwIcon />
          Reissue
        </Button>
      )}
    </div>
  );
}

export function accountCardColumns(
  onAction: (action: CardAction, card: Card) => void,
  canManage: boolean,
): ColumnDef<Card>[] {
  const columns: ColumnDef<Card>[] = [
    {
      accessorKey: 'number',
      header: 'Card Number',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 190 },
      cell: ({ row }) => (
        <IdCell value={row.original.number} label="card number">
          <CardNumber number={row.original.number} className="text-sm" />
        </IdCell>
      ),
    },
    {
      accessorKey: 'status',
      header: 'Status',
      meta: { width: 100 },
      cell: ({ row }) => <CardStatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'createdAt',
      header: 'Issued',
      enableSorting: true,
      meta: { width: 120 },
      cell: ({ row }) => formatDate(row.original.issuedAt),
    },
    {
      accessorKey: 'blockedAt',
      header: 'Blocked',
      meta: { minWidth: 140 },
      cell: ({ row }) =>
        row.original.blockedAt ? (
          <div className="flex min-w-0 flex-col">
            <span>{formatDate(row.original.blockedAt)}</span>
            {row.original.blockedReason && (
              <span className="truncate text-xs text-muted-foreground" title={row.original.blockedReason}>
                {row.original.blockedReason}
              </span>
            )}
          </div>
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    },
  ];
  if (canManage) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableHiding: false,
      meta: { width: 200, className: 'text-right' },
      cell: ({ row }) => <CardActions card={row.original} onAction={onAction} />,
    });
  }
  return columns;
}
