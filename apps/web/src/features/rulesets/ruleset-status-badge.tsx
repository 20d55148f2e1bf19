import type { RulesetStatus } from '@loyalty/contracts';
import { Badge } from '@/components/ui/badge';

const variant: Record<RulesetStatus, 'success' | 'secondary' | 'warning'> = {
  Active: 'success',
  Draft: 'secondary',
  Scheduled: 'warning',
};

export function RulesetStatusBadge({ status }: { status: RulesetStatus }) {
  return <Badge variant={variant[status] ?? 'outline'}>{status}</Badge>;
}
