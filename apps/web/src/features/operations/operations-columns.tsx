import type { Operation } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { CardNumber } from '@/components/cards/card-number';
import { DateTimeCell, IdCell, OperationPoints } from '@/components/data-table';
import { ClientLink } from '@/components/links/client-link';
import { OperationStatusBadge } from '@/components/operations/operation-status-badge';
import { OperationType } from '@/components/operations/operation-type';
import { SIGNED_POINTS_COLUMN_WIDTH } from '@/components/operations/signed-points';
import { Dash, DetailsCell } from './operation-details-cell';
import { posParts } from './operation-format';

function PosCell({ operation }: { operation: Operation }) {
  const { primary, secondary } = posParts(operation);
  if (primary === '—') return <Dash />;
  return (
    <div className="min-w-0">
      <div className="truncate" title={primary}>
        {primary}
      </div>
      {secondary && (
        <div className="truncate text-xs text-muted-foreground" title={secondary}>
          {secondary}
        </div>
      )}
    </div>
  );
}

/**
 * The card, linked to its client. An operation of a card-less account (an imported member's opening balance,
 * points added before a card was issued) still has its client: 'No card', linked to the client page.
 */
function CardCell({ operation }: { operation: Operation }) {
  const { accountId, cardNumber } = operation;
  if (!cardNumber && accountId) {
    return (
      <ClientLink to={accountId} className="text-xs">
        <span className="text-muted-foreground">No card</span>
        <span className="sr-only"> for client {accountId}</span>
      </ClientLink>
    );
  }
  return (
    <IdCell value={cardNumber} label="card number">
      {accountId ? (
        <ClientLink to={accountId}>
          <CardNumber number={cardNumber} className="text-xs" />
        </ClientLink>
      ) : (
        <CardNumber number={cardNumber} empty="—" className="text-xs" />
      )}
    </IdCell>
  );
}

export interface OperationColumnOptions {
  onViewReceipt: (operation: Operation) => void;
  loadingReceiptOf: string | null;
}

/** Only createdAt sorts on the server. */
export function operationColumns({
  onViewReceipt,
  loadingReceiptOf,
}: OperationColumnOptions): ColumnDef<Operation>[] {
  return [
    {
      accessorKey: 'operationId',
      header: 'Operation ID',
      enableHiding: false,
      // Its header whole and no more, so Points gets the width a whole '+999,999,999,999.99' needs while the
      // table still fits 1280 px with the sidebar open (every other column is at its content's width there).
      // The id takes two lines instead (rows are two lines high for Created anyway): a till id of ~20
      // characters shows whole, where one line cut every seeded 'op-20261109-000123' to 'op-20261…'.
      meta: { width: 108 },
      cell: ({ row }) => <IdCell value={row.original.operationId} label="operation ID" wrap />,
    },
    {
      accessorKey: 'type',
      header: 'Type',
      meta: { width: 124 },
      cell: ({ row }) => <OperationType type={row.original.type} />,
    },
    {
      accessorKey: 'cardNumber',
      header: 'Card Number',
      meta: { width: 160 },
      cell: ({ row }) => <CardCell operation={row.original} />,
    },
    {
      accessorKey: 'points',
      header: 'Points',
      meta: { width: SIGNED_POINTS_COLUMN_WIDTH, className: 'text-right' },
      cell: ({ row }) => <OperationPoints value={row.original.points} status={row.original.status} />,
    },
    {
      id: 'pos',
      header: 'POS',
      meta: { minWidth: 96 },
      cell: ({ row }) => <PosCell operation={row.original} />,
    },
    {
      accessorKey: 'status',
      header: 'Status',
      meta: { width: 100 },
      cell: ({ row }) => <OperationStatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'createdAt',
      header: 'Created',
      enableSorting: true,
      meta: { width: 112 },
      cell: ({ row }) => <DateTimeCell value={row.original.createdAt} />,
    },
    {
      id: 'details',
      header: 'Details',
      // Gives Points its width back so the table still fits 1280 px with the sidebar open; details wrap.
      meta: { minWidth: 100 },
      cell: ({ row }) => (
        <DetailsCell
          operation={row.original}
          onViewReceipt={onViewReceipt}
          loading={loadingReceiptOf === row.original.id}
        />
      ),
    },
  ];
}
