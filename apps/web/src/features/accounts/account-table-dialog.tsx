import type { Account } from '@loyalty/contracts';
import { Fragment, type ReactNode, useRef } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useReturnFocus } from '@/lib/use-return-focus';

/**
 * The wide dialog of one account's table (Cards, Operations, Lots): open while an account is chosen, the
 * account's client ID in the description, focus on the dialog itself while open and back to the row menu on
 * close. The table mounts per account, so another account starts on its own first page.
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
  const content = useRef<HTMLDivElement>(null);
  // These dialogs are for reading, yet their first control may change data (Cards' 'Issue New Card'):
  // Radix's default focus there let the Enter after opening issue a card. The dialog itself takes focus
  // instead, which announces its title and description; the next Tab reaches the controls.
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    content.current?.focus();
  });
  return (
    <Dialog open={account !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent ref={content} className="sm:max-w-4xl" {...returnFocus}>
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
