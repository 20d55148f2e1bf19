import { type Account, manualAccrualRequest } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { z } from 'zod';
import { FieldError } from '@/components/feedback/field-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { fieldAria, numberFromInput, setServerFieldErrors, useZodForm } from '@/lib/form';
import { formatNumber } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { useReturnFocus } from '@/lib/use-return-focus';
import { accountErrorContext, accountsKeys, addPoints, operationsKeys } from './accounts-api';

/** The contract's amount and reason; the account comes from the row the dialog was opened on. */
const addPointsForm = z.object({
  points: numberFromInput(manualAccrualRequest.shape.points),
  reason: manualAccrualRequest.shape.reason,
});

const empty = { points: '', reason: '' };

/** Spec section 2 "Add Points": an amount (step 0.01) and an optional reason; a manual accrual. */
export function AddPointsDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(addPointsForm, { defaultValues: empty, mode: 'onTouched' });
  const error = form.formState.errors.points?.message;
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    form.setFocus('points');
  });

  const close = () => {
    onClose();
    form.reset(empty);
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
    onError: (failure) => setServerFieldErrors(form, failure),
  });

  const onSubmit = form.handleSubmit(({ points, reason }) => {
    if (account && !mutation.isPending) mutation.mutate({ accountId: account.id, points, reason });
  });

  // Spec section 5: the button stays disabled while the amount is empty or at most 0.
  const amount = Number(form.watch('points') || Number.NaN);
  const canSubmit = Number.isFinite(amount) && amount > 0;

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
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0.01"
              placeholder="0.00"
              {...form.register('points')}
              {...fieldAria('add-points-amount', error)}
            />
            <FieldError id="add-points-amount-error" message={error} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-points-reason">Reason (optional)</Label>
            <Textarea
              id="add-points-reason"
              maxLength={500}
              placeholder="e.g. Goodwill credit"
              {...form.register('reason')}
            />
          </div>
          <DialogFormFooter
            onCancel={close}
            pending={mutation.isPending}
            submitLabel="Add Points"
            pendingLabel="Adding..."
            submitDisabled={!canSubmit}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
