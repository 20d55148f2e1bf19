import type { User } from '@loyalty/contracts';
import { LockOpenIcon, MoreHorizontalIcon, Trash2Icon, UserCheckIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
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
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${user.username}`}>
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="max-w-48 truncate">{user.username}</DropdownMenuLabel>
        <DropdownMenuSeparator />
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
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
