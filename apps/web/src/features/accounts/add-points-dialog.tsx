import { type Account, manualAccrualRequest } from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormDialog } from '@/components/forms/form-dialog';
import { FormField } from '@/components/forms/form-field';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { isApiError } from '@/lib/api-client';
import { numberFromInput, useZodForm } from '@/lib/form';
import { formatNumber } from '@/lib/format';
import { forgetKey, forgetKeyIfRefused, keyFor } from '@/lib/idempotency-key';
import { formatPoints } from '@/lib/points';
import { accountErrorContext, accountsKeys, addPoints, operationsKeys } from './accounts-api';
import { accountLotsKey } from './lots-api';

/** The contract's amount and reason; the account comes from the row the dialog was opened on. */
const addPointsForm = z.object({
  points: numberFromInput(manualAccrualRequest.shape.points),
  reason: manualAccrualRequest.shape.reason,
});

const empty = { points: '', reason: '' };

/**
 * What names a credit for its Idempotency-Key (lib/idempotency-key.ts, kept in sessionStorage): the same
 * account, amount and reason entered again, in this opening or another, even after a reload, reuse the key
 * until the credit is answered, so a credit whose answer never came is replayed by the server, not booked
 * twice. Changed values are a new request; once a credit is booked, the same amount again is a second one.
 */
function creditRequest({
  accountId,
  points,
  reason,
}: {
  accountId: string;
  points: number;
  reason?: string | null;
}) {
  return `add-points:${JSON.stringify([accountId, points, reason ?? ''])}`;
}

/** Spec section 2 "Add Points": an amount (step 0.01) and an optional reason; a manual accrual. */
export function AddPointsDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(addPointsForm, { defaultValues: empty, mode: 'onTouched' });
  const dialog = useFormDialog(form, 'points', onClose, {
    mutationFn: addPoints,
    meta: { errorContext: accountErrorContext.accrual },
    onSuccess: (_result, request) => {
      forgetKey(creditRequest(request));
      toast.success(`Successfully added ${formatNumber(request.points)} points to account`);
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
      void queryClient.invalidateQueries({ queryKey: operationsKeys.all });
      // The credit is a new lot, and moves the forecast: View Lots must not show the account as it was.
      void queryClient.invalidateQueries({ queryKey: accountLotsKey(request.accountId) });
    },
    // The member was erased since the list was loaded (409 ACCOUNT_ERASED, toasted by the common handler):
    // no amount can succeed, so the dialog closes and the list reloads, showing the account as erased.
    onError: (error, request, close) => {
      // The server's own refusal (4xx) says nothing was booked: the same credit entered later is a new one.
      // No answer (a timeout, a lost connection, a 5xx) keeps the key, and the credit entered again replays.
      forgetKeyIfRefused(creditRequest(request), error);
      if (!isApiError(error) || error.code !== 'ACCOUNT_ERASED') return;
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
      close();
    },
  });

  const onSubmit = form.handleSubmit(({ points, reason }) => {
    if (!account) return;
    const request = { accountId: account.id, points, reason };
    dialog.submit({ ...request, idempotencyKey: keyFor(creditRequest(request)) });
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
