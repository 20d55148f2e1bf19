import { type User, userListQuery } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { ForbiddenState } from '@/components/feedback/forbidden-state';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { buildUrl, isApiError } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { AddUserDialog } from './add-user-dialog';
import { DeleteUserDialog } from './delete-user-dialog';
import { RoleFilter } from './role-filter';
import { UnlockUserDialog } from './unlock-user-dialog';
import { type UserFilters, usersListQuery } from './users-api';
import { userColumns } from './users-columns';

/** Spec section 2 "User Management" (ADMIN only on the server). */
export function UsersPage() {
  const table = useServerTable<UserFilters>({ initialFilters: { role: undefined }, inUrl: userListQuery });
  const query = useQuery(usersListQuery(table.params));
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [unlocking, setUnlocking] = useState<User | null>(null);
  const columns = useMemo(() => userColumns(setDeleting, setUnlocking), []);

  const forbidden = isApiError(query.error) && query.error.status === 403;
  const canAdd = getCurrentUser().isAdmin && !forbidden;

  return (
    <>
      <PageHeader
        title="User Management"
        description="Manage who can sign in to the console and what they may do."
        actions={
          canAdd && (
            <Button onClick={() => setAdding(true)}>
              <PlusIcon />
              Add User
            </Button>
          )
        }
      />
      {forbidden ? (
        <ForbiddenState message="You do not have permission to view users." />
      ) : (
        <DataTable
          label="Users"
          errorText="Failed to load users"
          exportList={{ name: 'users', url: buildUrl('/auth/api/v1/users', table.params) }}
          columns={columns}
          controls={table}
          getRowId={(user) => user.id}
          {...fromQuery(query)}
          searchable
          searchLabel="Search users"
          searchPlaceholder="Search username or email..."
          filters={
            <RoleFilter value={table.filters.role} onChange={(role) => table.setFilter('role', role)} />
          }
        />
      )}
      <AddUserDialog open={adding} onOpenChange={setAdding} />
      <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />
      <UnlockUserDialog user={unlocking} onClose={() => setUnlocking(null)} />
    </>
  );
}
