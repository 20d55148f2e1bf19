import { createPosKeyRequest, type PosKeyStatus } from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { type DialogOpenProps, FormDialog } from '@/components/forms/form-dialog';
import { FormField } from '@/components/forms/form-field';
import { SelectField } from '@/components/forms/select-field';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { formLevelMessage, useZodForm } from '@/lib/form';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { ApiKeyInput } from './api-key-input';
import { generateApiKey } from './generate-api-key';
import { createPosKey, posKeyStatusOptions, posKeysKeys } from './pos-keys-api';

const REQUIRED = 'Name and API Key are required';
const empty = { name: '', address: '', apiKey: '', status: 'active' as PosKeyStatus };

/** Spec section 2 "POS Keys" and 5 "Create POS key", checked by the contract's schema. */
export function AddPosKeyDialog({ open, onOpenChange }: DialogOpenProps) {
  const queryClient = useQueryClient();
  const form = useZodForm(createPosKeyRequest, { defaultValues: empty });
  // One Idempotency-Key per request of this opening: the same values sent again after a failure whose create
  // may have committed (no answer, a 5xx) reuse it and get the key made the first time. Kept in this dialog
  // only, not in sessionStorage as `keyFor` keeps others: the request holds the API key itself. A new opening,
  // a success or the server's own refusal starts afresh.
  const sent = useRef<{ body: string; key: string } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each opening and closing of the dialog
  useEffect(() => {
    sent.current = null;
  }, [open]);
  const dialog = useFormDialog(form, 'name', () => onOpenChange(false), {
    mutationFn: createPosKey,
    meta: { errorTitle: 'Failed to create POS key' },
    onSuccess: () => {
      sent.current = null;
      toast.success('POS key created successfully');
      void queryClient.invalidateQueries({ queryKey: posKeysKeys.all });
    },
    onError: (error) => {
      if (isApiError(error) && error.explained && error.status >= 400 && error.status < 500)
        sent.current = null;
    },
  });
  // The spec's one message for a blank name or key, said once above the fields.
  const { formMessage, field } = formLevelMessage(form.formState.errors, REQUIRED);

  const generate = () => {
    form.setValue('apiKey', generateApiKey(), { shouldValidate: form.formState.isSubmitted });
    toast.success('API key generated');
  };

  return (
    <FormDialog
      open={open}
      dialog={dialog}
      alert={formMessage}
      title="Add POS Key"
      description="A till sends this key in the X-API-Key header. Keep a copy: only an administrator can view it later."
      onSubmit={form.handleSubmit((request) => {
        const body = JSON.stringify(request);
        if (sent.current?.body !== body) sent.current = { body, key: newIdempotencyKey() };
        dialog.submit({ ...request, idempotencyKey: sent.current.key });
      })}
      submitLabel="Create POS Key"
      pendingLabel="Creating..."
    >
      <FormField id="add-pos-key-name" label="Name" {...field('name')}>
        {(control) => (
          <Input
            autoComplete="off"
            maxLength={200}
            placeholder="e.g. Main Street till 1"
            {...form.register('name')}
            {...control}
          />
        )}
      </FormField>
      <FormField id="add-pos-key-address" label="Address" {...field('address')}>
        {(control) => (
          <Input
            autoComplete="off"
            maxLength={500}
            placeholder="Optional"
            {...form.register('address')}
            {...control}
          />
        )}
      </FormField>
      <FormField id="add-pos-key-api-key" label="API Key" {...field('apiKey')}>
        {(control) => (
          <ApiKeyInput
            maxLength={256}
            placeholder="At least 32 characters"
            onGenerate={generate}
            {...form.register('apiKey')}
            {...control}
          />
        )}
      </FormField>
      <SelectField
        control={form.control}
        name="status"
        id="add-pos-key-status"
        label="Status"
        options={posKeyStatusOptions}
      />
    </FormDialog>
  );
}
