import { type Account, canonicalClientId } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cardsKeys } from '@/lib/cards-api';
import { useReturnFocus } from '@/lib/use-return-focus';
import { accountErrorContext, accountsKeys, eraseMember, operationsKeys } from './accounts-api';

/**
 * PROGRAMME-API §4 erasure, destructive and final: the client ID must be typed again (in its canonical
 * form, as the server checks it: `José` typed either way, a pasted zero-width space ignored) before 'Erase Member' is enabled. Focus starts in the field; Escape or Cancel closes.
 */
export function EraseMemberDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    input.current?.focus();
  });
  const close = () => {
    setTyped('');
    onClose();
  };
  const mutation = useMutation({
    mutationFn: (target: Account) => eraseMember(target.id, typed),
    meta: { errorContext: accountErrorContext.erase },
    onSuccess: (erased) => {
      toast.success(`Member erased: the account is now ${erased.clientId}`);
      for (const queryKey of [accountsKeys.all, cardsKeys.all, operationsKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
      close();
    },
  });
  const matches = account !== null && canonicalClientId(typed) === canonicalClientId(account.clientId);

  return (
    <AlertDialog open={account !== null} onOpenChange={(open) => !open && !mutation.isPending && close()}>
      <AlertDialogContent {...returnFocus}>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (matches && !mutation.isPending) mutation.mutate(account);
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>Erase Member</AlertDialogTitle>
            <AlertDialogDescription>
              The client ID of{' '}
              <span className="font-medium break-all text-foreground">{account?.clientId}</span> is replaced,
              every card is blocked and the reasons of its operations are cleared. Points and the ledger stay.
              This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>Type the client ID to confirm</Label>
            <Input
              ref={input}
              id={inputId}
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          </div>
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={mutation.isPending}>
              Cancel
            </AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={!matches} pending={mutation.isPending}>
              {mutation.isPending ? 'Erasing...' : 'Erase Member'}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
