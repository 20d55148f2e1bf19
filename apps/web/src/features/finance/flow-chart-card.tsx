import type { PointsFlowReport } from '@loyalty/contracts';
import { ChartColumnIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import { useIsMobile } from '@/lib/use-mobile';

// Recharts is the console's heaviest dependency: its own chunk, fetched only when this card renders a chart.
const flowChart = lazyModule(() => import('./flow-chart'));

const chartSkeleton = <Skeleton className="h-[280px] w-full" />;

/** Earned against redeemed against expired, per period; says so when the range has none of them. */
export function FlowChartCard({ report, empty }: { report: PointsFlowReport | undefined; empty: boolean }) {
  const compact = useIsMobile();
  const chart = useLazyModule(flowChart, Boolean(report) && !empty);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Earned, Redeemed and Expired</CardTitle>
        <CardDescription>Points per period, by UTC day or month.</CardDescription>
      </CardHeader>
      <CardContent className="px-2 sm:px-6">
        {!report ? (
          chartSkeleton
        ) : empty ? (
          <div className="flex h-[280px] flex-col items-center justify-center gap-2 rounded-lg border border-dashed text-center text-sm text-muted-foreground">
            <ChartColumnIcon className="size-6" aria-hidden="true" />
            <p>No points earned, redeemed or expired in this range.</p>
          </div>
        ) : chart ? (
          <chart.default rows={report.rows} compact={compact} />
        ) : (
          chartSkeleton
        )}
      </CardContent>
    </Card>
  );
}
