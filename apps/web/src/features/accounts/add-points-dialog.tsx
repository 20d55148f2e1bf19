import { type Account, manualAccrualRequest } from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormDialog } from '@/components/forms/form-dialog';
import { FormField } from '@/components/forms/form-field';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { numberFromInput, useZodForm } from '@/lib/form';
import { formatNumber } from '@/lib/format';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { formatPoints } from '@/lib/points';
import { accountErrorContext, accountsKeys, addPoints, operationsKeys } from './accounts-api';
import { accountLotsKey } from './lots-api';

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
  // One Idempotency-Key per request of this opening: the same amount and reason sent again (after a failure
  // whose credit may have been booked) reuse it and are booked once; changed values are a new request. A new
  // opening (the account set, or cleared on close) or a booked credit starts afresh: a second credit of the
  // same amount is meant.
  const sent = useRef<{ body: string; key: string } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each opening and closing of the dialog
  useEffect(() => {
    sent.current = null;
  }, [account]);
  const dialog = useFormDialog(form, 'points', onClose, {
    mutationFn: addPoints,
    meta: { errorContext: accountErrorContext.accrual },
    onSuccess: (_result, request) => {
      sent.current = null;
      toast.success(`Successfully added ${formatNumber(request.points)} points to account`);
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
      void queryClient.invalidateQueries({ queryKey: operationsKeys.all });
      // The credit is a new lot, and moves the forecast: View Lots must not show the account as it was.
      void queryClient.invalidateQueries({ queryKey: accountLotsKey(request.accountId) });
    },
  });

  const onSubmit = form.handleSubmit(({ points, reason }) => {
    if (!account) return;
    const request = { accountId: account.id, points, reason };
    const body = JSON.stringify(request);
    if (sent.current?.body !== body) sent.current = { body, key: newIdempotencyKey() };
    dialog.submit({ ...request, idempotencyKey: sent.current.key });
  });

  // Spec section 5: the button stays disabled while the amount is empty or at most 0.
  const amount = Number(form.watch('points') || Number.NaN);
  const canSubmit = Number.isFinite(amount) && amount > 0;

  return (
    <FormDialog
      open={account !== null}
      dialog={dialog}
      title="Add Points"
      description={
        <>
          Credit points to <span className="font-medium text-foreground">{account?.clientId}</span>
          {account && <> (balance {formatPoints(account.balance)})</>}.
        </>
      }
      onSubmit={onSubmit}
      submitLabel="Add Points"
      pendingLabel="Adding..."
      submitDisabled={!canSubmit}
    >
      <FormField id="add-points-amount" label="Points" error={form.formState.errors.points?.message}>
        {(control) => (
          <Input
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            placeholder="0.00"
            {...form.register('points')}
            {...control}
          />
        )}
      </FormField>
      <FormField
        id="add-points-reason"
        label="Reason (optional)"
        error={form.formState.errors.reason?.message}
      >
        {(control) => (
          <Textarea
            maxLength={500}
            placeholder="e.g. Goodwill credit"
            {...form.register('reason')}
            {...control}
          />
        )}
      </FormField>
    </FormDialog>
  );
}
