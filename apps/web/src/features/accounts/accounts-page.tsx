import { type Account, accountListQuery } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { buildUrl } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { AccountCardsDialog } from './account-cards-dialog';
import { AccountLotsDialog } from './account-lots-dialog';
import { AccountOperationsDialog } from './account-operations-dialog';
import type { AccountAction } from './account-row-actions';
import { accountsListQuery } from './accounts-api';
import { accountColumns } from './accounts-columns';
import { AddPointsDialog } from './add-points-dialog';
import { CreateAccountDialog } from './create-account-dialog';
import { EraseMemberDialog } from './erase-member-dialog';
import { exportMemberData } from './export-member-data';
import { IssueCardDialog } from './issue-card-dialog';

/** Spec section 2 "Accounts": one dialog at a time, opened from the row menu. */
export function AccountsPage() {
  const table = useServerTable({ inUrl: accountListQuery });
  const query = useQuery(accountsListQuery(table.params));
  const { canManage, isAdmin } = getCurrentUser();
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<{ action: AccountAction; account: Account } | null>(null);
  const columns = useMemo(
    () =>
      accountColumns(
        // Export Data is a download, not a dialog.
        (action, account) =>
          action === 'export' ? void exportMemberData(account) : setOpen({ action, account }),
        canManage,
        isAdmin,
      ),
    [canManage, isAdmin],
  );
  const target = (action: AccountAction) => (open?.action === action ? open.account : null);
  const close = () => setOpen(null);

  return (
    <>
      <PageHeader
        title="Accounts"
        description="Client accounts, their balances and their loyalty cards."
        actions={
          canManage && (
            <Button onClick={() => setCreating(true)}>
              <PlusIcon />
              Create Account
            </Button>
          )
        }
      />
      <DataTable
        label="Accounts"
        errorText="Failed to load accounts page"
        exportList={{ name: 'accounts', url: buildUrl('/api/v1/accounts', table.params) }}
        columns={columns}
        controls={table}
        getRowId={(account) => account.id}
        {...fromQuery(query)}
        searchable
        searchLabel="Search accounts"
        searchPlaceholder="Search client ID..."
      />
      <CreateAccountDialog open={creating} onOpenChange={setCreating} />
      <AccountCardsDialog account={target('cards')} canManage={canManage} onClose={close} />
      <IssueCardDialog account={target('issue')} onClose={close} />
      <AddPointsDialog account={target('points')} onClose={close} />
      <AccountOperationsDialog account={target('operations')} onClose={close} />
      <AccountLotsDialog account={target('lots')} onClose={close} />
      <EraseMemberDialog account={target('erase')} onClose={close} />
    </>
  );
}
