import type { CreatedWebhook, Webhook } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import { refreshWhenStale } from './use-webhook-mutations';
import type { SecretView } from './webhook-secret-dialog';
import { revealWebhookSecret } from './webhooks-api';

/**
 * The secret dialog's state: `showCreated` with Add Endpoint's answer (no request: the secret came with
 * it), `reveal` from the menu click, never from an effect, so one click is one audited read. Closing drops
 * the secret from memory.
 */
export function useWebhookSecret() {
  const [shown, setShown] = useState<{ endpoint: Webhook; origin: SecretView['origin']; secret?: string }>();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (endpoint: Webhook) => revealWebhookSecret(endpoint.id),
    meta: { errorTitle: 'Failed to reveal the signing secret' },
    onSuccess: () => toast.success('Signing secret revealed and logged for audit'),
    // The endpoint was deleted meanwhile (the toast says so): Retry cannot succeed, so the dialog closes and
    // the list reloads without it.
    onError: (error) => {
      if (refreshWhenStale(queryClient, error)) setShown(undefined);
    },
  });
  const { mutate, reset } = mutation;
  const reveal = useCallback(
    (endpoint: Webhook) => {
      setShown({ endpoint, origin: 'revealed' });
      mutate(endpoint);
    },
    [mutate],
  );
  const showCreated = useCallback(
    (created: CreatedWebhook) => setShown({ endpoint: created, origin: 'created', secret: created.secret }),
    [],
  );
  const revealed = shown?.origin === 'revealed';
  const view: SecretView = {
    url: shown?.endpoint.url ?? null,
    origin: shown?.origin ?? 'revealed',
    secret: shown?.secret ?? mutation.data?.secret ?? null,
    isPending: revealed && mutation.isPending,
    error: revealed ? mutation.error : null,
    retry: () => shown && mutate(shown.endpoint),
    close: () => {
      setShown(undefined);
      reset();
    },
  };
  return { view, reveal, showCreated };
}
