import { Badge } from '@/components/ui/badge';

type Variant = 'success' | 'destructive' | 'warning' | 'outline';

const known: Record<string, { label: string; variant: Variant }> = {
  active: { label: 'Active', variant: 'success' },
  blocked: { label: 'Blocked', variant: 'destructive' },
  pending: { label: 'Pending', variant: 'warning' },
};

/** Spec section 3 "Card": active, blocked or pending; any other value shows as Unknown. */
export function CardStatusBadge({ status }: { status: string | null | undefined }) {
  const shown = (status && Object.hasOwn(known, status) ? known[status] : undefined) ?? {
    label: 'Unknown',
    variant: 'outline' as const,
  };
  return <Badge variant={shown.variant}>{shown.label}</Badge>;
}
