import type { Account } from '@loyalty/contracts';
import { Fragment, type ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useReturnFocus } from '@/lib/use-return-focus';

/**
 * The wide dialog of one account's table (Cards, Operations): open while an account is chosen, the
 * account's client ID in the description, focus back to the row menu on close. The table mounts per
 * account, so another account starts on its own first page.
 */
export function AccountTableDialog({
  account,
  onClose,
  title,
  description,
  children,
}: {
  account: Account | null;
  onClose: () => void;
  title: string;
  /** The words before the client ID, e.g. 'Loyalty cards of'. */
  description: string;
  children: (account: Account) => ReactNode;
}) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={account !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-4xl" {...returnFocus}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {description} <span className="font-medium text-foreground">{account?.clientId}</span>.
          </DialogDescription>
        </DialogHeader>
        {account && <Fragment key={account.id}>{children(account)}</Fragment>}
      </DialogContent>
    </Dialog>
  );
}
