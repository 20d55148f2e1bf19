import type { User } from '@loyalty/contracts';
import { LockOpenIcon, Trash2Icon, UserCheckIcon } from 'lucide-react';
import { RowActionsMenu } from '@/components/data-table';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { getCurrentUser } from '@/lib/current-user';

/** Row menu; your own row offers no Delete (the server refuses it anyway). */
export function UserRowActions({
  user,
  onDelete,
  onUnlock,
}: {
  user: User;
  onDelete: (user: User) => void;
  onUnlock?: (user: User) => void;
}) {
  const isMe = user.username === getCurrentUser().username;
  return (
    <RowActionsMenu label={`Actions for ${user.username}`} title={user.username}>
      {onUnlock && (
        <DropdownMenuItem onSelect={() => onUnlock(user)}>
          <LockOpenIcon />
          Unlock sign-in
        </DropdownMenuItem>
      )}
      {isMe ? (
        <DropdownMenuItem disabled>
          <UserCheckIcon />
          Signed in as this user
        </DropdownMenuItem>
      ) : (
        <DropdownMenuItem variant="destructive" onSelect={() => onDelete(user)}>
          <Trash2Icon />
          Delete
        </DropdownMenuItem>
      )}
    </RowActionsMenu>
  );
}
