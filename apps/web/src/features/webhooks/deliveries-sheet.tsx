import type { Delivery, Webhook } from '@loyalty/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { InboxIcon } from 'lucide-react';
import { toast } from 'sonner';
import { ErrorWithRetry } from '@/components/feedback/error-with-retry';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { getServerMessage } from '@/lib/handle-server-error';
import { useReturnFocus } from '@/lib/use-return-focus';
import { DeliveryItem } from './delivery-item';
import { DELIVERIES_SHOWN, deliveriesQuery, retryDelivery, webhooksKeys } from './webhooks-api';

function DeliveriesList({ endpoint }: { endpoint: Webhook }) {
  const queryClient = useQueryClient();
  const query = useQuery(deliveriesQuery(endpoint.id));
  const retry = useMutation({
    mutationFn: retryDelivery,
    meta: { errorTitle: 'Failed to retry the delivery' },
    onSuccess: () => {
      toast.success('Delivery queued: it is sent again now');
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
    },
  });

  if (query.isPending) {
    return (
      <div role="status" className="grid gap-3" aria-label="Loading deliveries">
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }
  if (query.error) {
    return (
      <ErrorWithRetry
        message={`Failed to load deliveries: ${getServerMessage(query.error)}`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const { content, totalElements } = query.data;
  if (content.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
        <InboxIcon className="size-6" aria-hidden="true" />
        <p>No deliveries yet. Send a test event to try the endpoint.</p>
      </div>
    );
  }
  return (
    <>
      <ul className="grid gap-3" aria-label="Deliveries">
        {content.map((delivery: Delivery) => (
          <DeliveryItem
            key={delivery.id}
            delivery={delivery}
            onRetry={retry.mutate}
            retrying={retry.isPending && retry.variables?.id === delivery.id}
          />
        ))}
      </ul>
      {totalElements > DELIVERIES_SHOWN && (
        <p className="text-sm text-muted-foreground">
          The newest {DELIVERIES_SHOWN} of {totalElements} deliveries.
        </p>
      )}
    </>
  );
}

/** Issue 12: an endpoint's deliveries, newest first, refreshed while any is pending. */
export function DeliveriesSheet({ endpoint, onClose }: { endpoint: Webhook | null; onClose: () => void }) {
  const returnFocus = useReturnFocus();
  const queryClient = useQueryClient();
  const close = () => {
    // What was watched here (a test going through, a retry) can change the list's last delivery and rate
    // (they are over the endpoint's latest deliveries: a retry of an older one does not show there).
    void queryClient.invalidateQueries({ queryKey: webhooksKeys.list });
    onClose();
  };
  return (
    <Sheet open={endpoint !== null} onOpenChange={(open) => !open && close()}>
      <SheetContent className="w-full gap-0 sm:max-w-xl" {...returnFocus}>
        <SheetHeader className="border-b pr-10">
          <SheetTitle>Deliveries</SheetTitle>
          <SheetDescription className="break-all">{endpoint?.url}</SheetDescription>
        </SheetHeader>
        <div className="flex-1 overflow-y-auto p-4">{endpoint && <DeliveriesList endpoint={endpoint} />}</div>
      </SheetContent>
    </Sheet>
  );
}
