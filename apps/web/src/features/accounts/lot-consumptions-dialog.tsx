import type { Lot, LotConsumption } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useRef } from 'react';
import { DataTable, DateTimeCell, fromQuery, IdCell, useServerTable } from '@/components/data-table';
import { OperationLink } from '@/components/links/text-link';
import { OperationType } from '@/components/operations/operation-type';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { useReturnFocus } from '@/lib/use-return-focus';
import { lotConsumptionsQuery } from './lots-api';

// What, how much, when, then which: on a phone the points show before the table scrolls.
const columns: ColumnDef<LotConsumption>[] = [
  {
    accessorKey: 'type',
    header: 'Type',
    meta: { width: 124 },
    cell: ({ row }) => <OperationType type={row.original.type} />,
  },
  {
    accessorKey: 'points',
    header: 'Points',
    meta: { className: 'text-right', width: 128 },
    cell: ({ row }) => <span className="tabular-nums">{formatPoints(row.original.points)}</span>,
  },
  {
    accessorKey: 'at',
    header: 'Date',
    meta: { width: 112 },
    cell: ({ row }) => <DateTimeCell value={row.original.at} />,
  },
  {
    // The till's own id when it has one (what a cashier quotes), else the operation's; both link to it.
    accessorKey: 'operationId',
    header: 'Operation ID',
    meta: { minWidth: 140 },
    cell: ({ row }) => {
      const shown = row.original.posOperationId ?? row.original.operationId;
      return (
        <IdCell value={shown} label="operation ID">
          <OperationLink id={row.original.operationId}>{shown}</OperationLink>
        </IdCell>
      );
    },
  },
];

function ConsumptionsTable({ accountId, lot }: { accountId: string; lot: Lot }) {
  const table = useServerTable({ pageSize: 10 });
  const query = useQuery(
    lotConsumptionsQuery({ accountId, lotId: lot.id, page: table.params.page, size: table.params.size }),
  );
  return (
    <DataTable
      label="Operations that took points from the lot"
      columns={columns}
      controls={table}
      getRowId={(c) => c.operationId}
      {...fromQuery(query)}
      pageSizeOptions={[10, 20, 50]}
      emptyText="Nothing has been taken from this lot."
    />
  );
}

/**
 * PROGRAMME-API §1 "every point can be traced": the debits (redemptions, returns, expiry runs) that took
 * points from one lot, over the Lots dialog; Escape closes this one only, and focus goes back to its button.
 */
export function LotConsumptionsDialog({
  accountId,
  lot,
  onClose,
}: {
  accountId: string;
  lot: Lot | null;
  onClose: () => void;
}) {
  const content = useRef<HTMLDivElement>(null);
  // The dialog itself takes focus, as the Lots dialog does: it announces the title and the lot, and no
  // Refresh button shows a focus ring nobody put there.
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    content.current?.focus();
  });
  return (
    <Dialog open={lot !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent ref={content} className="sm:max-w-2xl grid-cols-[minmax(0,1fr)]" {...returnFocus}>
        <DialogHeader>
          <DialogTitle>Taken by</DialogTitle>
          <DialogDescription>
            {lot
              ? `Operations that took points from the lot of ${formatPoints(lot.points)} earned ${formatDateTime(lot.earnedAt)}.`
              : null}
          </DialogDescription>
        </DialogHeader>
        {lot && (
          <>
            <dl className="grid gap-1 text-sm">
              <dt className="text-xs text-muted-foreground">Credit operation</dt>
              <dd className="min-w-0 break-all font-mono text-xs">
                {lot.creditOperationId ? (
                  <OperationLink id={lot.creditOperationId}>{lot.creditOperationId}</OperationLink>
                ) : (
                  <span className="font-sans text-muted-foreground">Opening balance</span>
                )}
              </dd>
            </dl>
            <ConsumptionsTable key={lot.id} accountId={accountId} lot={lot} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
