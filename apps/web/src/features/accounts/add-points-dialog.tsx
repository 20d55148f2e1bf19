import type { Account } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { formatNumber } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { useReturnFocus } from '@/lib/use-return-focus';
import { accountErrorContext, accountsKeys, addPoints, operationsKeys } from './accounts-api';
import { canSubmitPoints, parsePoints, validatePoints } from './add-points-form';

/** Spec section 2 "Add Points": an amount (step 0.01) and an optional reason; a manual accrual. */
export function AddPointsDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const amountRef = useRef<HTMLInputElement>(null);
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    amountRef.current?.focus();
  });

  const close = () => {
    onClose();
    setAmount('');
    setReason('');
    setTouched(false);
  };

  const mutation = useMutation({
    mutationFn: addPoints,
    meta: { errorContext: accountErrorContext.accrual },
    onSuccess: (_result, request) => {
      toast.success(`Successfully added ${formatNumber(request.points)} points to account`);
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
      void queryClient.invalidateQueries({ queryKey: operationsKeys.all });
      close();
    },
  });

  const error = touched ? validatePoints(amount) : null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    const points = parsePoints(amount);
    if (!account || mutation.isPending || validatePoints(amount) || points === null || points <= 0) {
      amountRef.current?.focus();
      return;
    }
    mutation.mutate({ accountId: account.id, points, reason: reason.trim() || null });
  };

  return (
    <Dialog open={account !== null} onOpenChange={(next) => !next && !mutation.isPending && close()}>
      <DialogContent {...returnFocus}>
        <DialogHeader>
          <DialogTitle>Add Points</DialogTitle>
          <DialogDescription>
            Credit points to <span className="font-medium text-foreground">{account?.clientId}</span>
            {account && <> (balance {formatPoints(account.balance)})</>}.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="add-points-amount">Points</Label>
            <Input
              id="add-points-amount"
              ref={amountRef}
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0.01"
              placeholder="0.00"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              onBlur={() => setTouched(true)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'add-points-amount-error' : undefined}
            />
            <FieldError id="add-points-amount-error" message={error} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-points-reason">Reason (optional)</Label>
            <Textarea
              id="add-points-reason"
              value={reason}
              maxLength={500}
              onChange={(e) => setReason(e.target.value)}
              placeholder="e.g. Goodwill credit"
            />
          </div>
          <DialogFormFooter
            onCancel={close}
            pending={mutation.isPending}
            submitLabel="Add Points"
            pendingLabel="Adding..."
            submitDisabled={!canSubmitPoints(amount)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
