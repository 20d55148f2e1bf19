import type { Account } from '@loyalty/contracts';
import {
  CreditCardIcon,
  FileDownIcon,
  HistoryIcon,
  LayersIcon,
  PlusCircleIcon,
  Trash2Icon,
  WalletCardsIcon,
} from 'lucide-react';
import { RowActionsMenu } from '@/components/data-table';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { isErasedAccount } from './accounts-api';

export type AccountAction = 'cards' | 'issue' | 'points' | 'operations' | 'lots' | 'export' | 'erase';

/**
 * Spec section 2 "Accounts" row menu; Issue Card and Add Points need MANAGER or ADMIN, a member's Export
 * Data and Erase Member (PROGRAMME-API §4) ADMIN. An erased member is offered no Add Points, and no second
 * erasure (there is nothing left to erase; it would only write another audit entry).
 */
export function AccountRowActions({
  account,
  canManage,
  isAdmin = false,
  onAction,
}: {
  account: Account;
  canManage: boolean;
  isAdmin?: boolean;
  onAction: (action: AccountAction, account: Account) => void;
}) {
  return (
    <RowActionsMenu label={`Actions for ${account.clientId}`} title={account.clientId}>
      <DropdownMenuItem onSelect={() => onAction('cards', account)}>
        <WalletCardsIcon />
        View Cards
      </DropdownMenuItem>
      {canManage && (
        <DropdownMenuItem onSelect={() => onAction('issue', account)}>
          <CreditCardIcon />
          Issue Card
        </DropdownMenuItem>
      )}
      {/* An erased member's account takes no points by hand: the server refuses it (ACCOUNT_ERASED). */}
      {canManage && !isErasedAccount(account) && (
        <DropdownMenuItem onSelect={() => onAction('points', account)}>
          <PlusCircleIcon />
          Add Points
        </DropdownMenuItem>
      )}
      <DropdownMenuItem onSelect={() => onAction('operations', account)}>
        <HistoryIcon />
        View Operations
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction('lots', account)}>
        <LayersIcon />
        View Lots
      </DropdownMenuItem>
      {isAdmin && (
        <>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => onAction('export', account)}>
            <FileDownIcon />
            Export Data
          </DropdownMenuItem>
          {!isErasedAccount(account) && (
            <DropdownMenuItem variant="destructive" onSelect={() => onAction('erase', account)}>
              <Trash2Icon />
              Erase Member
            </DropdownMenuItem>
          )}
        </>
      )}
    </RowActionsMenu>
  );
}
