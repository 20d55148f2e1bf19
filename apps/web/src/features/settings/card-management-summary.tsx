import type { Settings } from '@loyalty/contracts';
import { CalendarClockIcon, ClockIcon, CreditCardIcon, HourglassIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';

function plural(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`;
}

export function holdDurationText(minutes: number | null | undefined): string {
  return minutes === null || minutes === undefined ? 'Not configured' : plural(minutes, 'minute', 'minutes');
}

export function cardsLimitText(limit: number | null | undefined): string {
  return limit === null || limit === undefined
    ? 'No limit set'
    : plural(limit, 'card per account', 'cards per account');
}

export function expiryText(days: number | null | undefined): string {
  return days === null || days === undefined ? 'Never' : plural(days, 'day', 'days');
}

export function pendingText(days: number | null | undefined): string {
  return !days ? 'Immediately' : plural(days, 'day', 'days');
}

function Row({
  icon,
  label,
  value,
  loading,
}: {
  icon: ReactNode;
  label: string;
  value: string;
  loading: boolean;
}) {
  return (
    <div className="flex items-center gap-3 rounded-lg border p-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
        {icon}
      </span>
      <dl className="min-w-0">
        <dt className="text-sm text-muted-foreground">{label}</dt>
        <dd className="font-medium">{loading ? <Skeleton className="mt-1 h-5 w-28" /> : value}</dd>
      </dl>
    </div>
  );
}

/** Spec section 2: the 'Card Management' summary of what is in force now. */
export function CardManagementSummary({
  settings,
  loading,
  failed,
  onRetry,
}: {
  settings: Settings | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Card Management</CardTitle>
        <CardDescription>The values in force now.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {failed && !settings ? (
          <div role="alert" className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="text-destructive">Failed to load settings</span>
            <Button variant="outline" size="sm" onClick={onRetry}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <Row
              icon={<ClockIcon className="size-4" />}
              label="Hold Duration"
              value={holdDurationText(settings?.holds.ttl_minutes)}
              loading={loading}
            />
            <Row
              icon={<CreditCardIcon className="size-4" />}
              label="Cards Limit"
              value={cardsLimitText(settings?.cards.limit_per_account)}
              loading={loading}
            />
            <Row
              icon={<CalendarClockIcon className="size-4" />}
              label="Points Expiry"
              value={expiryText(settings?.points?.expiry_days)}
              loading={loading}
            />
            <Row
              icon={<HourglassIcon className="size-4" />}
              label="Pending Period"
              value={pendingText(settings?.points?.pending_days)}
              loading={loading}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
