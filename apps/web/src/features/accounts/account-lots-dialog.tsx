import type { Account, Lot, LotStatus } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { Badge } from '@/components/ui/badge';
import { FilterSelect } from '@/components/ui/option-select';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate, formatDateTime } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { AccountTableDialog } from './account-table-dialog';
import { accountLotsQuery, expiryForecastQuery } from './lots-api';

const PAGE_SIZES = [10, 20, 50, 100];

const statusVariant = { open: 'success', spent: 'secondary', expired: 'destructive' } as const;
const statusOptions = (['open', 'spent', 'expired'] as const).map((value) => ({ value, label: value }));

/**
 * Ten digits and two decimals whole ('1,234,567,890.12 pts'), as Accounts' Balance: flexible columns cut a
 * lot of a billion points to '999,999,999.9…'. The three date columns and Status share what is left.
 */
const POINTS_WIDTH = 176;

const columns: ColumnDef<Lot>[] = [
  // Days fit a phone's columns; the time is in the cell's title.
  {
    accessorKey: 'earnedAt',
    header: 'Earned',
    cell: ({ row }) => (
      <span title={formatDateTime(row.original.earnedAt)}>{formatDate(row.original.earnedAt)}</span>
    ),
  },
  {
    accessorKey: 'availableAt',
    header: 'Available from',
    cell: ({ row }) => (
      <span title={formatDateTime(row.original.availableAt)}>{formatDate(row.original.availableAt)}</span>
    ),
  },
  {
    accessorKey: 'expiresAt',
    header: 'Expires',
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
    cell: ({ row }) => (
      <Badge variant={statusVariant[row.original.status]} className="capitalize">
        {row.original.status}
      </Badge>
    ),
  },
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
    </div>
  );
}

/** Issue 9: an account's lots (earned, available from, expires, points, remaining, status) and its forecast. */
export function AccountLotsDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  return (
    <AccountTableDialog account={account} onClose={onClose} title="Lots" description="Points lots of">
      {(shown) => <AccountLotsPanel account={shown} />}
    </AccountTableDialog>
  );
}
