import type { Webhook, WebhookStatus } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { sendTestEvent, setWebhookStatus, webhooksKeys } from './webhooks-api';

/** Disable / Enable: the list (and any open deliveries) refresh after it. */
export function useWebhookStatus(onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ endpoint, status }: { endpoint: Webhook; status: WebhookStatus }) =>
      setWebhookStatus({ id: endpoint.id, status }),
    meta: { errorTitle: 'Failed to change the endpoint' },
    onSuccess: (changed) => {
      toast.success(changed.status === 'active' ? 'Endpoint enabled' : 'Endpoint disabled');
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
      onDone();
    },
  });
}

/** 'Send test event' queues a webhook.test delivery; `onQueued` opens the drawer to watch it go. */
export function useSendTestEvent(onQueued: (endpoint: Webhook) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpoint: Webhook) => sendTestEvent(endpoint.id),
    meta: { errorTitle: 'Failed to send a test event' },
    onSuccess: (_delivery, endpoint) => {
      toast.success(
        endpoint.status === 'active'
          ? 'Test event queued'
          : 'Test event queued: it is sent when the endpoint is enabled',
      );
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
      onQueued(endpoint);
    },
  });
}
