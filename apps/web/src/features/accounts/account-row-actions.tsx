import type { Account } from '@loyalty/contracts';
import {
  CreditCardIcon,
  HistoryIcon,
  MoreHorizontalIcon,
  PlusCircleIcon,
  WalletCardsIcon,
} from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

export type AccountAction = 'cards' | 'issue' | 'points' | 'operations';

/** Spec section 2 "Accounts" row menu; Issue Card and Add Points need MANAGER or ADMIN. */
export function AccountRowActions({
  account,
  canManage,
  onAction,
}: {
  account: Account;
  canManage: boolean;
  onAction: (action: AccountAction, account: Account) => void;
}) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${account.clientId}`}>
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="max-w-48 truncate">{account.clientId}</DropdownMenuLabel>
        <DropdownMenuSeparator />
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
        {canManage && (
          <DropdownMenuItem onSelect={() => onAction('points', account)}>
            <PlusCircleIcon />
            Add Points
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => onAction('operations', account)}>
          <HistoryIcon />
          View Operations
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
