import type { Delivery } from '@loyalty/contracts';
import { RotateCcwIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { keepFocusNear } from '@/lib/focus-fallback';
import { formatDateTime } from '@/lib/format';
import { DeliveryStatusBadge } from './webhook-status';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

/**
 * One delivery: what happened to it, and its payload (the event exactly as the receiver gets it) folded
 * away. Retry for a failed one, and for one waiting for its next attempt (it goes now instead).
 */
export function DeliveryItem({
  delivery,
  onRetry,
  retrying,
}: {
  delivery: Delivery;
  onRetry: (delivery: Delivery) => void;
  retrying: boolean;
}) {
  const canRetry = delivery.status === 'failed' || (delivery.status === 'pending' && delivery.attempts > 0);
  return (
    <li className="grid gap-3 rounded-lg border p-3" aria-label={`${delivery.eventType} delivery`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm font-medium">{delivery.eventType}</span>
        <DeliveryStatusBadge status={delivery.status} attempts={delivery.attempts} />
        <span className="ml-auto text-xs text-muted-foreground">{formatDateTime(delivery.createdAt)}</span>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Detail label="Attempts">{delivery.attempts}</Detail>
        <Detail label="Response">{delivery.responseStatus ?? 'None'}</Detail>
        <Detail label="Last attempt">{formatDateTime(delivery.lastAttemptAt, 'Not yet')}</Detail>
        <Detail label="Next retry">
          {delivery.status === 'pending' ? formatDateTime(delivery.nextAttemptAt, 'Due') : 'None'}
        </Detail>
      </dl>
      {delivery.lastError && <p className="break-words text-sm text-destructive">{delivery.lastError}</p>}
      <details className="group rounded-md bg-muted/50 text-sm">
        <summary className="cursor-pointer rounded-md px-3 py-2 font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          Payload
        </summary>
        {/* A read-only text area: focusable, so a keyboard can scroll a long payload, and selectable to copy. */}
        <Textarea
          readOnly
          aria-label={`Payload of event ${delivery.eventId}`}
          value={JSON.stringify(delivery.payload, null, 2)}
          rows={10}
          className="resize-y rounded-t-none border-0 bg-transparent font-mono text-xs shadow-none dark:bg-transparent"
        />
      </details>
      {canRetry && (
        <Button
          variant="outline"
          size="sm"
          className="w-fit"
          pending={retrying}
          onClick={(event) => {
            // A retried delivery may go through: its Retry leaves, and focus stays in the delivery.
            keepFocusNear(event.currentTarget);
            onRetry(delivery);
          }}
        >
          <RotateCcwIcon />
          {retrying ? 'Retrying...' : 'Retry'}
        </Button>
      )}
    </li>
  );
}
