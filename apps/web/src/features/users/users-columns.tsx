import type { Role, User } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { actionsColumn } from '@/components/data-table';
import { WrappedText } from '@/components/text/user-text';
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
/** Up to two lines, broken anywhere if a word (an address) needs it; the whole value in the title. */
function Wrapped({ text }: { text: string | null | undefined }) {
  if (!text) return <NotSet />;
  return <WrappedText text={text} lines={2} />;
}

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
      // Wraps, whole: two long addresses used as usernames were cut to the same 'christopher.w…', and a clamp
      // to two lines still cut them both before the part that differs.
      cell: ({ row }) => <WrappedText text={row.original.username} className="font-medium" />,
    },
    {
      accessorKey: 'fullName',
      header: 'Full Name',
      enableSorting: true,
      // Fixed, so the spare width goes to Email (two flexible columns split it equally, and an address is
      // longer than a name: Email was cut at 1280 px with width to spare here). A long name wraps.
      meta: { width: 150 },
      cell: ({ row }) => <Wrapped text={row.original.fullName} />,
    },
    {
      accessorKey: 'email',
      header: 'Email',
      enableSorting: true,
      meta: { minWidth: 180 },
      cell: ({ row }) => <Wrapped text={row.original.email} />,
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
