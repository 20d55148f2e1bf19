import type { Account } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { CardNumber } from '@/components/cards/card-number';
import { actionsColumn } from '@/components/data-table';
import { ClientLink } from '@/components/links/client-link';
import { TruncatedText } from '@/components/text/user-text';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { type AccountAction, AccountRowActions } from './account-row-actions';
import { isErasedAccount } from './accounts-api';

/** Column ids are the server's sort fields (clientId, balance, createdAt). */
export function accountColumns(
  onAction: (action: AccountAction, account: Account) => void,
  canManage: boolean,
  isAdmin = false,
): ColumnDef<Account>[] {
  return [
    {
      accessorKey: 'clientId',
      header: 'Client ID',
      enableSorting: true,
      enableHiding: false,
      meta: { minWidth: 160 },
      cell: ({ row }) => (
        // Wraps: on a phone the badge goes under the ID rather than cutting the ID to 'erased-d…'.
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <ClientLink to={row.original.id} className="block min-w-0 font-medium">
            <TruncatedText text={row.original.clientId} />
          </ClientLink>
          {/* Said beside the ID, not only by its 'erased-' form: why the row menu offers no Add Points. */}
          {isErasedAccount(row.original) && (
            <Badge variant="secondary" title="This member's data was erased">
              Erased
            </Badge>
          )}
        </div>
      ),
    },
    {
      id: 'activeCard',
      header: 'Active Card',
      meta: { width: 130 },
      cell: ({ row }) => <CardNumber number={row.original.activeCardNumber} masked />,
    },
    {
      accessorKey: 'balance',
      header: 'Balance',
      enableSorting: true,
      // Ten digits and two decimals whole ('1,234,567,890.12 pts'): at 140 px a balance from ~10 million
      // lost its last digits to an ellipsis. The flexible Client ID column gives up the width.
      meta: { width: 176 },
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="tabular-nums">{formatPoints(row.original.balance)}</span>
          {/* These lines wrap after their label: 'Pending: 2,999,999,999.97 pts' is wider than the column and
              was cut; the figure itself stays on one line. */}
          {row.original.heldBalance > 0 && (
            <span className="text-xs whitespace-normal text-muted-foreground tabular-nums">
              Held: <span className="whitespace-nowrap">{formatPoints(row.original.heldBalance)}</span>
            </span>
          )}
          {row.original.pendingBalance > 0 && (
            <span className="text-xs whitespace-normal text-muted-foreground tabular-nums">
              Pending: <span className="whitespace-nowrap">{formatPoints(row.original.pendingBalance)}</span>
            </span>
          )}
        </div>
      ),
    },
    {
      accessorKey: 'createdAt',
      header: 'Created',
      enableSorting: true,
      meta: { width: 120 },
      cell: ({ row }) => formatDate(row.original.createdAt),
    },
    actionsColumn((account) => (
      <AccountRowActions account={account} canManage={canManage} isAdmin={isAdmin} onAction={onAction} />
    )),
  ];
}
