import type { RulesetStatus } from '@loyalty/contracts';
import { Badge } from '@/components/ui/badge';

const variant: Record<RulesetStatus, 'success' | 'secondary' | 'warning' | 'outline'> = {
  Active: 'success',
  Draft: 'secondary',
  Scheduled: 'warning',
  // Kept for history and receipts, never in force again.
  Retired: 'outline',
};

export function RulesetStatusBadge({ status }: { status: RulesetStatus }) {
  return <Badge variant={variant[status] ?? 'outline'}>{status}</Badge>;
}
