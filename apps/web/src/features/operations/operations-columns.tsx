import type { Operation } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { ReceiptTextIcon } from 'lucide-react';
import { Link } from 'react-router';
import { CardNumber } from '@/components/cards/card-number';
import { DateTimeCell, IdCell, OperationPoints } from '@/components/data-table';
import { ClientLink } from '@/components/links/client-link';
import { OperationStatusBadge } from '@/components/operations/operation-status-badge';
import { OperationType } from '@/components/operations/operation-type';
import { SIGNED_POINTS_COLUMN_WIDTH } from '@/components/operations/signed-points';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { type OperationDetail, operationDetails, posParts } from './operation-format';

// Ids in Details stay on one line (cut, full value in the tooltip); free text may take two lines.
const ID_DETAILS: Partial<Record<OperationDetail['key'], string>> = {
  transactionId: 'transaction ID',
  receipt: 'receipt ID',
  returnOf: 'returned operation ID',
  holdId: 'hold ID',
  operationId: 'requested operation ID',
};

const TONES: Partial<Record<OperationDetail['key'], string>> = {
  error: 'text-destructive',
  // Points the return could not take back: not an error, but not to be read past either.
  shortfall: 'font-medium text-warning-foreground',
};

function DetailValue({ detail }: { detail: OperationDetail }) {
  const idLabel = ID_DETAILS[detail.key];
  if (detail.key === 'returnOf') {
    // The accrual it returns, found by its id on this screen (the search takes operation ids).
    return (
      <IdCell value={detail.value} label="returned operation ID">
        <Link
          to={`/operations?${new URLSearchParams({ search: detail.value })}`}
          // ClientLink's look: dotted underline, solid on hover and focus, the focus ring.
          className={cn(
            'rounded-sm underline decoration-muted-foreground/60 decoration-dotted underline-offset-4 outline-none',
            'hover:decoration-current hover:decoration-solid focus-visible:decoration-solid focus-visible:ring-[3px] focus-visible:ring-ring/50',
          )}
        >
          {detail.value}
        </Link>
      </IdCell>
    );
  }
  if (idLabel) return <IdCell value={detail.value} label={idLabel} />;
  return (
    <span className={cn('line-clamp-2 [overflow-wrap:anywhere]', TONES[detail.key])} title={detail.value}>
      {detail.value}
    </span>
  );
}

function Dash() {
  return <span className="text-muted-foreground">—</span>;
}

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

function DetailsCell({
  operation,
  onViewReceipt,
  loading,
}: {
  operation: Operation;
  onViewReceipt: (operation: Operation) => void;
  loading: boolean;
}) {
  const details = operationDetails(operation.meta);
  const hasReceipt = operation.type === 'accrual';
  return (
    // A container: below 9rem (the Details column at 1280 px with the sidebar open) each label goes above its
    // value, which beside 'Receipt:' was squeezed to nothing.
    <div className="@container flex min-w-0 flex-col items-start gap-1.5 whitespace-normal">
      {details.length === 0 && !hasReceipt && <Dash />}
      {details.length > 0 && (
        <dl className="grid w-full grid-cols-1 items-center gap-x-2 text-xs @[9rem]:grid-cols-[auto_minmax(0,1fr)]">
          {details.map((detail) => (
            <div key={detail.key} className="contents">
              <dt className="text-muted-foreground">{detail.label}:</dt>
              <dd className="min-w-0">
                <DetailValue detail={detail} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {hasReceipt && (
        <Button
          variant="outline"
          size="sm"
          // Wraps in a narrow Details column (1280 px with the sidebar open) instead of being cut at its edge.
          className="h-auto min-h-7 max-w-full whitespace-normal px-2 py-1 text-left text-xs leading-tight"
          onClick={() => onViewReceipt(operation)}
          disabled={loading}
        >
          <ReceiptTextIcon />
          View Receipt
        </Button>
      )}
    </div>
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
      cell: ({ row }) => (
        <IdCell value={row.original.cardNumber} label="card number">
          {row.original.accountId ? (
            <ClientLink to={row.original.accountId}>
              <CardNumber number={row.original.cardNumber} className="text-xs" />
            </ClientLink>
          ) : (
            <CardNumber number={row.original.cardNumber} empty="—" className="text-xs" />
          )}
        </IdCell>
      ),
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
