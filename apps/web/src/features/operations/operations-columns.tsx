import type { Operation } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { ReceiptTextIcon } from 'lucide-react';
import { CardNumber } from '@/components/cards/card-number';
import { OperationStatusBadge } from '@/components/operations/operation-status-badge';
import { OperationType } from '@/components/operations/operation-type';
import { SignedPoints } from '@/components/operations/signed-points';
import { Button } from '@/components/ui/button';
import { formatDate, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { operationDetails, posParts } from './operation-format';

function Dash() {
  return <span className="text-muted-foreground">—</span>;
}

function PosCell({ operation }: { operation: Operation }) {
  const { primary, secondary } = posParts(operation);
  if (primary === '—') return <Dash />;
  return (
    <div className="max-w-32">
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
    <div className="flex min-w-32 max-w-64 flex-col items-start gap-1.5 whitespace-normal">
      {details.length === 0 && !hasReceipt && <Dash />}
      {details.length > 0 && (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
          {details.map((detail) => (
            <div key={detail.key} className="contents">
              <dt className="text-muted-foreground">{detail.label}:</dt>
              <dd className={cn('[overflow-wrap:anywhere]', detail.key === 'error' && 'text-destructive')}>
                {detail.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {hasReceipt && (
        <Button
          variant="outline"
          size="sm"
          className="h-7 px-2 text-xs"
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

function CreatedCell({ value }: { value: string }) {
  return (
    <div className="leading-tight">
      <div>{formatDate(value)}</div>
      <div className="text-xs text-muted-foreground">{formatTime(value)}</div>
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
      cell: ({ row }) =>
        row.original.operationId ? (
          <span className="block max-w-24 truncate font-mono text-xs" title={row.original.operationId}>
            {row.original.operationId}
          </span>
        ) : (
          <Dash />
        ),
    },
    {
      accessorKey: 'type',
      header: 'Type',
      cell: ({ row }) => <OperationType type={row.original.type} />,
    },
    {
      accessorKey: 'cardNumber',
      header: 'Card Number',
      cell: ({ row }) => <CardNumber number={row.original.cardNumber} empty="—" className="text-xs" />,
    },
    {
      accessorKey: 'points',
      header: 'Points',
      meta: { className: 'text-right' },
      cell: ({ row }) => <SignedPoints value={row.original.points} />,
    },
    { id: 'pos', header: 'POS', cell: ({ row }) => <PosCell operation={row.original} /> },
    {
      accessorKey: 'status',
      header: 'Status',
      cell: ({ row }) => <OperationStatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'createdAt',
      header: 'Created',
      enableSorting: true,
      cell: ({ row }) => <CreatedCell value={row.original.createdAt} />,
    },
    {
      id: 'details',
      header: 'Details',
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
