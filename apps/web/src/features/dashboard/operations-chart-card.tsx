import { ChartColumnIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import { useIsMobile } from '@/lib/use-mobile';
import { cn } from '@/lib/utils';
import { CHART_RANGES, type ChartRange } from './analytics-windows';
import { chartPoints, chartSubtitle, operationTotals } from './dashboard-metrics';
import { RangePicker } from './range-picker';
import type { DashboardData } from './use-dashboard-data';
import { useSeen } from './use-seen';

// Recharts is the heaviest dependency of the console: it loads in its own chunk, after the numbers, and
// only once the chart's place is (nearly) on screen.
const operationsChart = lazyModule(() => import('./operations-chart'));

const CHART_HEIGHT = 'h-[280px]';

function EmptyChart() {
  return (
    <div
      className={cn(
        CHART_HEIGHT,
        'flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed text-center text-sm text-muted-foreground',
      )}
    >
      <ChartColumnIcon className="size-6" aria-hidden="true" />
      <p>No chart data to show.</p>
    </div>
  );
}

export function OperationsChartCard({
  chart,
  range,
  onRangeChange,
}: {
  chart: DashboardData['chart'];
  range: ChartRange;
  onRangeChange: (range: ChartRange) => void;
}) {
  const compact = useIsMobile();
  const [placeRef, seen] = useSeen<HTMLDivElement>();
  const Chart = useLazyModule(operationsChart, seen)?.default;
  const totals = chart.data && operationTotals(chart.data);
  const groupBy = chart.data?.range.groupBy ?? CHART_RANGES[range].groupBy;

  return (
    <Card className="@container/chart gap-4" aria-busy={chart.loading || chart.stale}>
      <CardHeader className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle>Bonus Operations</CardTitle>
          {chart.loading ? (
            <Skeleton className="h-5 w-56 max-w-full" />
          ) : (
            <CardDescription>
              {totals ? chartSubtitle(totals.count, totals.volume) : 'No data'}
            </CardDescription>
          )}
        </div>
        <RangePicker value={range} onChange={onRangeChange} />
      </CardHeader>
      <CardContent className="px-2 sm:px-6">
        {chart.loading ? (
          <Skeleton className={cn(CHART_HEIGHT, 'w-full')} />
        ) : chart.data ? (
          <div ref={placeRef} className={cn('relative transition-opacity', chart.stale && 'opacity-50')}>
            {seen && Chart ? (
              <Chart
                points={chartPoints(chart.data)}
                groupBy={groupBy}
                compact={compact}
                totals={totals ?? operationTotals(chart.data)}
              />
            ) : (
              <Skeleton className={cn(CHART_HEIGHT, 'w-full')} />
            )}
            {totals?.count === 0 && (
              <p className="pointer-events-none absolute inset-x-0 top-1/3 text-center text-sm text-muted-foreground">
                No operations in this period.
              </p>
            )}
          </div>
        ) : (
          <EmptyChart />
        )}
        <p className="mt-3 px-4 text-xs text-muted-foreground sm:px-0">
          {groupBy === 'hour' ? 'Hourly, in UTC.' : 'Daily, by UTC day.'} The faded last bar and dashed line
          are the {groupBy === 'hour' ? 'current hour' : 'current day'} so far. Volume: points moved, rounded
          to whole points.
        </p>
      </CardContent>
    </Card>
  );
}
