import type { DeliveryStatus, WebhookStatus } from '@loyalty/contracts';
import { Badge } from '@/components/ui/badge';

export function WebhookStatusBadge({ status }: { status: WebhookStatus }) {
  return status === 'active' ? (
    <Badge variant="success">Active</Badge>
  ) : (
    <Badge variant="outline" className="text-muted-foreground">
      Disabled
    </Badge>
  );
}

/** A pending delivery that was attempted failed that attempt and waits for its retry. */
export function DeliveryStatusBadge({ status, attempts }: { status: DeliveryStatus; attempts: number }) {
  if (status === 'succeeded') return <Badge variant="success">Succeeded</Badge>;
  if (status === 'failed') return <Badge variant="destructive">Failed</Badge>;
  return <Badge variant="warning">{attempts > 0 ? 'Retrying' : 'Pending'}</Badge>;
}
