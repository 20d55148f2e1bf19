import type { Lot, LotConsumption } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { type ReactNode, useRef } from 'react';
import { Link } from 'react-router';
import { DataTable, DateTimeCell, fromQuery, IdCell, useServerTable } from '@/components/data-table';
import { OperationType } from '@/components/operations/operation-type';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { useReturnFocus } from '@/lib/use-return-focus';
import { cn } from '@/lib/utils';
import { lotConsumptionsQuery } from './lots-api';

/** Operations, searched by an operation's exact id (uuid): the list opens on that operation alone. */
export const operationSearchPath = (id: string) => `/operations?${new URLSearchParams({ search: id })}`;

/**
 * A link to one operation in Operations: its search finds an operation by its exact id (uuid), so the
 * list opens on that operation alone. ClientLink's look: dotted underline, solid on hover and focus.
 */
export function OperationSearchLink({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Link
      to={operationSearchPath(id)}
      className={cn(
        'rounded-sm underline decoration-muted-foreground/60 decoration-dotted underline-offset-4 outline-none',
        'hover:decoration-current hover:decoration-solid focus-visible:decoration-solid focus-visible:ring-[3px] focus-visible:ring-ring/50',
      )}
    >
      {children}
    </Link>
  );
}

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
          <OperationSearchLink id={row.original.operationId}>{shown}</OperationSearchLink>
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
                  <OperationSearchLink id={lot.creditOperationId}>
                    {lot.creditOperationId}
                  </OperationSearchLink>
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
