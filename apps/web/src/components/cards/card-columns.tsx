import type { Card } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { IdCell } from '@/components/data-table';
import { ClientLink } from '@/components/links/client-link';
import { formatDate } from '@/lib/format';
import { CardNumber } from './card-number';
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
 * The card number, whole (staff type it at the till), sortable on the server, with a copy button and, where
 * `linked`, a link to the card's client page.
 */
export function cardNumberColumn<T extends Card>({ linked = false } = {}): ColumnDef<T> {
  return {
    id: 'number',
    accessorFn: (card) => card.number,
    header: 'Card Number',
    enableSorting: true,
    enableHiding: false,
    meta: { width: 190 },
    cell: ({ row }) => {
      const number = <CardNumber number={row.original.number} className="font-medium text-sm" />;
      return (
        <IdCell value={row.original.number} label="card number">
          {linked ? <ClientLink to={row.original.accountId}>{number}</ClientLink> : number}
        </IdCell>
      );
    },
  };
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
