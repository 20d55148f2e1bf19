import { Badge } from '@/components/ui/badge';

type Variant = 'success' | 'destructive' | 'warning' | 'secondary' | 'outline';

// Spec section 4: displayed statuses completed, active, pending, failed, applied, voided.
const variants: Record<string, Variant> = {
  completed: 'success',
  applied: 'success',
  active: 'secondary',
  pending: 'warning',
  failed: 'destructive',
  voided: 'outline',
};

export function OperationStatusBadge({ status }: { status: string }) {
  const variant = Object.hasOwn(variants, status) ? variants[status] : 'outline';
  return (
    <Badge variant={variant} className="capitalize">
      {status}
    </Badge>
  );
}
