import type { PosKey } from '@loyalty/contracts';
import { KeyRoundIcon, PowerIcon, PowerOffIcon } from 'lucide-react';
import { RowActionsMenu } from '@/components/data-table';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';

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
    <RowActionsMenu label={`Actions for ${posKey.name}`} title={posKey.name}>
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
    </RowActionsMenu>
  );
}
