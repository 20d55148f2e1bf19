import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  createWebhookRequest,
  type EventType,
} from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { type DialogOpenProps, FormDialog } from '@/components/forms/form-dialog';
import { FormField } from '@/components/forms/form-field';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { Input } from '@/components/ui/input';
import { useZodForm } from '@/lib/form';
import { forgetKey, forgetKeyIfRefused, keyFor } from '@/lib/idempotency-key';
import { EventTypeCheckboxes } from './event-type-checkboxes';
import { createWebhook, webhooksKeys } from './webhooks-api';

const empty = { url: '', description: '', eventTypes: [] as EventType[] };

/**
 * What names an endpoint's creation for its Idempotency-Key (lib/idempotency-key.ts): the same values sent again
 * after a failure whose create may have committed (no answer, a 5xx) reuse the key and get the endpoint made
 * the first time with its secret, not a second endpoint. A success or the server's own refusal forgets it.
 */
const createRequest = (body: CreateWebhookRequest) => `create-webhook:${JSON.stringify(body)}`;

/** Issue 12 "Add Endpoint": checked by the contract's schema; the secret comes back once, to `onCreated`. */
export function AddWebhookDialog({
  open,
  onOpenChange,
  onCreated,
}: DialogOpenProps & { onCreated: (created: CreatedWebhook) => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(createWebhookRequest, { defaultValues: empty });
  const dialog = useFormDialog(form, 'url', () => onOpenChange(false), {
    mutationFn: createWebhook,
    meta: { errorTitle: 'Failed to add the endpoint' },
    onError: (error, { idempotencyKey: _, ...body }) => forgetKeyIfRefused(createRequest(body), error),
    onSuccess: (created, { idempotencyKey: _, ...body }) => {
      forgetKey(createRequest(body));
      toast.success('Webhook endpoint added');
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
      onCreated(created);
    },
  });
  const errors = form.formState.errors;

  return (
    <FormDialog
      open={open}
      dialog={dialog}
      title="Add Endpoint"
      description="Events are POSTed to this URL, signed with Standard Webhooks headers."
      onSubmit={form.handleSubmit((body) =>
        dialog.submit({ ...body, idempotencyKey: keyFor(createRequest(body)) }),
      )}
      submitLabel="Add Endpoint"
      pendingLabel="Adding..."
    >
      <FormField id="add-webhook-url" label="URL" error={errors.url?.message}>
        {(control) => (
          <Input
            type="url"
            inputMode="url"
            autoComplete="off"
            maxLength={2000}
            placeholder="https://crm.example.com/loyalty-events"
            {...form.register('url')}
            {...control}
          />
        )}
      </FormField>
      <FormField id="add-webhook-description" label="Description" error={errors.description?.message}>
        {(control) => (
          <Input
            autoComplete="off"
            maxLength={500}
            placeholder="Optional"
            {...form.register('description')}
            {...control}
          />
        )}
      </FormField>
      <Controller
        control={form.control}
        name="eventTypes"
        render={({ field, fieldState }) => (
          <EventTypeCheckboxes
            id="add-webhook-events"
            value={field.value}
            onChange={field.onChange}
            error={fieldState.error?.message}
          />
        )}
      />
    </FormDialog>
  );
}
