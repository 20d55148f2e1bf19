import type { Role, User } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { actionsColumn } from '@/components/data-table';
import { Badge } from '@/components/ui/badge';
import { formatDate, formatDateTime } from '@/lib/format';
import { roleLabel } from './role-labels';
import { UserRowActions } from './user-row-actions';

const roleVariant: Record<Role, 'default' | 'secondary' | 'outline'> = {
  ADMIN: 'default',
  MANAGER: 'secondary',
  VIEWER: 'outline',
};

function NotSet() {
  return <span className="text-muted-foreground">Not set</span>;
}

/** Column ids are the server's sort fields (username, fullName, email, role, createdAt, lastLogin). */
export function userColumns(
  onDelete: (user: User) => void,
  onUnlock?: (user: User) => void,
): ColumnDef<User>[] {
  return [
    {
      accessorKey: 'username',
      header: 'Username',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 150 },
      cell: ({ row }) => <span className="font-medium">{row.original.username}</span>,
    },
    {
      accessorKey: 'fullName',
      header: 'Full Name',
      enableSorting: true,
      meta: { minWidth: 140 },
      cell: ({ row }) => row.original.fullName || <NotSet />,
    },
    {
      accessorKey: 'email',
      header: 'Email',
      enableSorting: true,
      meta: { minWidth: 180 },
      cell: ({ row }) => row.original.email || <NotSet />,
    },
    {
      accessorKey: 'role',
      header: 'Role',
      enableSorting: true,
      meta: { width: 124 },
      cell: ({ row }) => (
        <Badge variant={roleVariant[row.original.role]}>{roleLabel[row.original.role]}</Badge>
      ),
    },
    {
      accessorKey: 'createdAt',
      header: 'Created',
      enableSorting: true,
      meta: { width: 120 },
      cell: ({ row }) => formatDate(row.original.createdAt),
    },
    {
      accessorKey: 'lastLogin',
      header: 'Last Login',
      enableSorting: true,
      meta: { width: 190 },
      cell: ({ row }) => formatDateTime(row.original.lastLogin, 'Never'),
    },
    actionsColumn((user) => <UserRowActions user={user} onDelete={onDelete} onUnlock={onUnlock} />),
  ];
}
