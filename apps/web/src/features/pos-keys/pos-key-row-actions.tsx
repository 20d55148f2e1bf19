import type { PosKey } from '@loyalty/contracts';
import { KeyRoundIcon, MoreHorizontalIcon, PowerIcon, PowerOffIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

export type PosKeyAction = 'reveal' | 'activate' | 'deactivate';

/** View API Key for administrators only (the server agrees); Activate or Deactivate by status. */
export function PosKeyRowActions({
  posKey,
  canReveal,
  onAction,
}: {
  posKey: PosKey;
  canReveal: boolean;
  onAction: (action: PosKeyAction, posKey: PosKey) => void;
}) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${posKey.name}`}>
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="max-w-48 truncate">{posKey.name}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {canReveal && (
          <DropdownMenuItem onSelect={() => onAction('reveal', posKey)}>
            <KeyRoundIcon />
            View API Key
          </DropdownMenuItem>
        )}
        {posKey.status === 'active' ? (
          <DropdownMenuItem variant="destructive" onSelect={() => onAction('deactivate', posKey)}>
            <PowerOffIcon />
            Deactivate
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem onSelect={() => onAction('activate', posKey)}>
            <PowerIcon />
            Activate
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
