import { createAccountRequest } from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type DialogOpenProps, FormDialog } from '@/components/forms/form-dialog';
import { FormField } from '@/components/forms/form-field';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { Input } from '@/components/ui/input';
import { useZodForm } from '@/lib/form';
import { forgetKey, forgetKeyIfRefused, keyFor } from '@/lib/idempotency-key';
import { accountErrorContext, accountsKeys, createAccount } from './accounts-api';

/**
 * What names a create for its Idempotency-Key (lib/idempotency-key.ts): the same client ID saved again after
 * a failure whose create may have committed (no answer, a 5xx) reuses the key and gets the account made the
 * first time, not "already exists". A success or the server's own refusal forgets it.
 */
const createRequest = (clientId: string) => `create-account:${clientId}`;

/** Spec section 5 "Create account": required and trimmed ('Client ID is required'), by the contract's schema. */
export function CreateAccountDialog({ open, onOpenChange }: DialogOpenProps) {
  const queryClient = useQueryClient();
  const form = useZodForm(createAccountRequest, { defaultValues: { clientId: '' } });
  const dialog = useFormDialog(form, 'clientId', () => onOpenChange(false), {
    mutationFn: createAccount,
    meta: { errorContext: accountErrorContext.create },
    onError: (error, { clientId }) => forgetKeyIfRefused(createRequest(clientId), error),
    onSuccess: (_account, { clientId }) => {
      forgetKey(createRequest(clientId));
      toast.success('Account created successfully');
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
    },
  });

  return (
    <FormDialog
      open={open}
      dialog={dialog}
      title="Create Account"
      description="A loyalty account for one client. Cards are issued to it afterwards."
      onSubmit={form.handleSubmit((body) =>
        dialog.submit({ ...body, idempotencyKey: keyFor(createRequest(body.clientId)) }),
      )}
      submitLabel="Create Account"
      pendingLabel="Creating..."
    >
      <FormField
        id="create-account-client-id"
        label="Client ID"
        error={form.formState.errors.clientId?.message}
      >
        {(control) => (
          <Input
            autoComplete="off"
            spellCheck={false}
            maxLength={100}
            {...form.register('clientId')}
            {...control}
          />
        )}
      </FormField>
    </FormDialog>
  );
}
