import type { Webhook, WebhookStatus } from '@loyalty/contracts';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { isStaleDataError } from '@/lib/api-client';
import { keepFocusNear } from '@/lib/focus-fallback';
import { sendTestEvent, setWebhookStatus, webhooksKeys } from './webhooks-api';

/**
 * After a 404 or 409 (the endpoint was deleted or changed by someone else since the list was loaded, and the
 * failure toast says so): the list reloads, so the screen stops offering what can no longer succeed.
 * Answers whether the error was one.
 */
export function refreshWhenStale(queryClient: QueryClient, error: unknown): boolean {
  if (!isStaleDataError(error)) return false;
  // A menu action that opened nothing (Enable, Send test event) left focus on the row's ⋯, which goes with
  // the row once the list has reloaded: focus then moves to the row now in its place, not to <body>. A
  // dialog gives focus back by itself when it closes (useReturnFocus).
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body && !active.closest(DIALOG)) {
    keepFocusNear(active);
  }
  void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
  return true;
}

const DIALOG = '[role="dialog"],[role="alertdialog"]';

/**
 * Disable / Enable: the list (and any open deliveries) refresh after it. `onDone` (closing the confirm
 * dialog) runs on success and after a stale-data refusal, as the card dialogs do: the action can no longer
 * succeed on what the dialog showed.
 */
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
    onError: (error) => {
      if (refreshWhenStale(queryClient, error)) onDone();
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
    onError: (error) => void refreshWhenStale(queryClient, error),
  });
}
