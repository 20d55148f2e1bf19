import { RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useIsMobile } from '@/lib/use-mobile';
import { cn } from '@/lib/utils';
import type { ChartRange } from './analytics-windows';
import { MetricCards } from './metric-cards';
import { OperationsChartCard } from './operations-chart-card';
import { QuickActions } from './quick-actions';
import { SystemOverview } from './system-overview';
import { useDashboardData } from './use-dashboard-data';

/** Spec section 2 'Dashboard' (/ and /dashboard), laid out like shadcn's dashboard-01. */
export function DashboardPage() {
  const isMobile = useIsMobile();
  // Default 7 days; a phone-sized screen (< 768 px) starts at, and switches to, 24 hours.
  const [range, setRange] = useState<ChartRange>(() => (isMobile ? '24h' : '7d'));
  const [wasMobile, setWasMobile] = useState(isMobile);
  if (isMobile !== wasMobile) {
    setWasMobile(isMobile);
    if (isMobile) setRange('24h');
  }

  const data = useDashboardData(range);
  const summary = data.summary.data;

  return (
    <div className="@container/main flex flex-col gap-4 md:gap-6">
      <PageHeader
        title="Dashboard"
        description="Loyalty program analytics: points, operations, cards and active users."
        actions={
          <Button variant="outline" onClick={data.refresh} pending={data.refreshing}>
            <RefreshCwIcon className={cn(data.refreshing && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
        }
      />
      <MetricCards data={data} />
      <OperationsChartCard chart={data.chart} range={range} onRangeChange={setRange} />
      {summary || data.summary.loading ? (
        <div className="grid gap-4 md:gap-6 @4xl/main:grid-cols-3">
          <QuickActions />
          <div className="@4xl/main:col-span-2">
            {summary ? (
              <SystemOverview data={data} summary={summary} />
            ) : (
              <Skeleton className="h-full min-h-64 w-full rounded-xl" aria-hidden="true" />
            )}
          </div>
        </div>
      ) : (
        <QuickActions />
      )}
    </div>
  );
}
