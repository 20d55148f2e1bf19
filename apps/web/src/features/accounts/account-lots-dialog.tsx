import type { Account, Lot, LotStatus } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { ArrowUpRightIcon, ListTreeIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { actionsColumn, DataTable, fromQuery, RowActionsMenu, useServerTable } from '@/components/data-table';
import { operationSearchPath } from '@/components/links/text-link';
import { Badge } from '@/components/ui/badge';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { FilterSelect } from '@/components/ui/option-select';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, formatDateTime } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { AccountTableDialog } from './account-table-dialog';
import { LotConsumptionsDialog } from './lot-consumptions-dialog';
import { accountLotsQuery, expiryForecastQuery } from './lots-api';

const PAGE_SIZES = [10, 20, 50, 100];

const statusVariant = { open: 'success', spent: 'secondary', expired: 'destructive' } as const;
const statusOptions = (['open', 'spent', 'expired'] as const).map((value) => ({ value, label: value }));

/**
 * Ten digits and two decimals whole ('1,234,567,890.12 pts'), as Accounts' Balance: flexible columns cut a
 * lot of a billion points to '999,999,999.9…'. The three date columns and Status share what is left.
 */
const POINTS_WIDTH = 176;
/**
 * With the ⋯ menu the default minimum (120 each) made the table wider than the dialog at 1280 px. 112 keeps
 * 'Nov 29, 2026' whole where the table scrolls (390 and 768 px: 104 cut it to 'Nov 29, 2…'); at 1280 px the
 * dates share more than that once Status is fixed.
 */
const DATE_MIN_WIDTH = 112;

/**
 * The lot's columns, then its ⋯ menu: its credit operation in Operations, and what took its points
 * (`onTrace`). A menu, not two more columns: those pushed Status out of the dialog at 1280 px.
 */
const lotColumns = (onTrace: (lot: Lot) => void): ColumnDef<Lot>[] => [
  // Days fit a phone's columns; the time is in the cell's title.
  {
    accessorKey: 'earnedAt',
    header: 'Earned',
    meta: { minWidth: DATE_MIN_WIDTH },
    cell: ({ row }) => (
      <span title={formatDateTime(row.original.earnedAt)}>{formatDate(row.original.earnedAt)}</span>
    ),
  },
  {
    accessorKey: 'availableAt',
    header: 'Available from',
    meta: { minWidth: DATE_MIN_WIDTH },
    cell: ({ row }) => (
      <span title={formatDateTime(row.original.availableAt)}>{formatDate(row.original.availableAt)}</span>
    ),
  },
  {
    accessorKey: 'expiresAt',
    header: 'Expires',
    meta: { minWidth: DATE_MIN_WIDTH },
    // The exact instant on hover, as Earned and Available from: a lot expires at a time of day, not at midnight.
    cell: ({ row }) =>
      row.original.expiresAt ? (
        <span title={formatDateTime(row.original.expiresAt)}>{formatDate(row.original.expiresAt)}</span>
      ) : (
        'Never'
      ),
  },
  {
    accessorKey: 'points',
    header: 'Points',
    meta: { className: 'text-right', width: POINTS_WIDTH },
    cell: ({ row }) => <span className="tabular-nums">{formatPoints(row.original.points)}</span>,
  },
  {
    accessorKey: 'remaining',
    header: 'Remaining',
    meta: { className: 'text-right', width: POINTS_WIDTH },
    cell: ({ row }) => <span className="tabular-nums">{formatPoints(row.original.remaining)}</span>,
  },
  {
    accessorKey: 'status',
    header: 'Status',
    // The widest badge ('Expired') and no more: the dates get the rest.
    meta: { width: 80 },
    cell: ({ row }) => (
      <Badge variant={statusVariant[row.original.status]} className="capitalize">
        {row.original.status}
      </Badge>
    ),
  },
  actionsColumn(
    (lot) => (
      // Lots earned in the same minute (an opening balance and a bulk credit) are told apart by their points.
      <RowActionsMenu
        label={`Actions for the lot of ${formatPoints(lot.points)} earned ${formatDateTime(lot.earnedAt)}, ${formatPoints(lot.remaining)} left`}
        title="Lot"
      >
        {/* The credit that made the lot, found in Operations by its id; an account's opening lot has none. */}
        {lot.creditOperationId && (
          <DropdownMenuItem asChild>
            <Link to={operationSearchPath(lot.creditOperationId)}>
              <ArrowUpRightIcon />
              View Credit Operation
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => onTrace(lot)}>
          <ListTreeIcon />
          Taken by
        </DropdownMenuItem>
      </RowActionsMenu>
    ),
    { width: 48 },
  ),
];

/** What expires within 30, 60 and 90 days: cumulative, as the server counts it. */
function Forecast({ accountId }: { accountId: string }) {
  const query = useQuery(expiryForecastQuery(accountId));
  const items = [
    ['30 days', query.data?.in30Days],
    ['60 days', query.data?.in60Days],
    ['90 days', query.data?.in90Days],
  ] as const;
  return (
    <section aria-label="Expiry forecast" className="grid gap-2">
      <h3 className="text-sm font-medium">Expiring within</h3>
      {/* A row each on a phone, label left and figure right: three columns there ran ten-digit figures
          into each other. The figure wraps before it overflows (only 'pts' moves, as a rule). */}
      <dl className="grid gap-2 sm:grid-cols-3">
        {items.map(([label, value]) => (
          <div
            key={label}
            className="flex min-w-0 flex-wrap items-baseline justify-between gap-x-2 gap-y-0.5 rounded-lg border p-2.5 sm:grid sm:justify-normal"
          >
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="min-w-0 font-semibold tabular-nums wrap-anywhere">
              {query.isPending ? (
                <Skeleton className="h-5 w-16" />
              ) : query.isError ? (
                '—'
              ) : (
                formatPoints(value ?? 0)
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function AccountLotsPanel({ account }: { account: Account }) {
  const [traced, setTraced] = useState<Lot | null>(null);
  const columns = useMemo(() => lotColumns(setTraced), []);
  const table = useServerTable<{ status: LotStatus | undefined }>({
    pageSize: 10,
    initialFilters: { status: undefined },
  });
  const query = useQuery(
    accountLotsQuery({
      accountId: account.id,
      page: table.params.page,
      size: table.params.size,
      status: table.filters.status,
    }),
  );
  return (
    <div className="grid min-w-0 gap-4">
      <Forecast accountId={account.id} />
      <DataTable
        label={`Lots of ${account.clientId}`}
        columns={columns}
        controls={table}
        getRowId={(lot) => lot.id}
        {...fromQuery(query)}
        pageSizeOptions={PAGE_SIZES}
        filters={
          <FilterSelect
            label="Filter by status"
            allLabel="All statuses"
            options={statusOptions}
            value={table.filters.status}
            onChange={(status) => table.setFilter('status', status)}
            className="w-36"
            itemClassName="capitalize"
          />
        }
      />
      <LotConsumptionsDialog accountId={account.id} lot={traced} onClose={() => setTraced(null)} />
    </div>
  );
}

/**
 * Issue 9: an account's lots (earned, available from, expires, points, remaining, status) and its forecast;
 * each lot's credit operation and what took its points (PROGRAMME-API §1: every point can be traced).
 */
export function AccountLotsDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  return (
    <AccountTableDialog account={account} onClose={onClose} title="Lots" description="Points lots of">
      {(shown) => <AccountLotsPanel account={shown} />}
    </AccountTableDialog>
  );
}
