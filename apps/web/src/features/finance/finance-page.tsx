import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ExportListButton } from '@/components/data-table/export-list-button';
import { ErrorWithRetry } from '@/components/feedback/error-with-retry';
import { ForbiddenState } from '@/components/feedback/forbidden-state';
import { PageHeader } from '@/components/layout/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { buildUrl } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { cn } from '@/lib/utils';
import { type FlowParams, POINTS_FLOW_PATH, pointsFlowQuery } from './finance-api';
import { FinanceControls } from './finance-controls';
import { presetRange, type RangePreset, rangeProblem } from './finance-range';
import { FinanceSummary } from './finance-summary';
import { FlowChartCard } from './flow-chart-card';
import { FlowTable } from './flow-table';

/** Issue 9 "Finance" (/reports, MANAGER and ADMIN): the points flow and what the programme owes. */
export function FinancePage() {
  const user = getCurrentUser();
  const [preset, setPreset] = useState<RangePreset>('30d');
  const [params, setParams] = useState<FlowParams>(() => presetRange('30d'));
  // The last range the server can answer: an invalid custom range keeps the previous figures on screen.
  const [shown, setShown] = useState(params);
  const problem = rangeProblem(params);
  if (!problem && JSON.stringify(shown) !== JSON.stringify(params)) setShown(params);

  const query = useQuery({ ...pointsFlowQuery(shown), enabled: user.canManage });
  const report = query.data;
  // The chart draws earned, redeemed and expired: with none of them (only adjustments, or nothing) it says so.
  const empty = !!report && report.rows.every((r) => !r.earned && !r.redeemed && !r.expired);

  const choosePreset = (next: RangePreset) => {
    setPreset(next);
    if (next !== 'custom') setParams(presetRange(next));
  };
  const edit = (next: FlowParams) => {
    setPreset('custom');
    setParams(next);
  };

  const header = (actions?: ReactNode) => (
    <PageHeader
      title="Finance"
      description="Points earned, redeemed, returned, expired and adjusted, rolled forward from opening to closing."
      actions={actions}
    />
  );
  if (!user.canManage) {
    return (
      <>
        {header()}
        <ForbiddenState message="You do not have permission to view finance reports." />
      </>
    );
  }

  return (
    <div className="@container/main flex flex-col gap-4 md:gap-6">
      {header(<ExportListButton name="points-flow" url={buildUrl(POINTS_FLOW_PATH, { ...shown })} />)}
      <FinanceControls
        preset={preset}
        params={params}
        problem={problem}
        onPreset={choosePreset}
        onChange={edit}
      />
      {query.isError && !report ? (
        <ErrorWithRetry message="Failed to load the points flow" onRetry={() => void query.refetch()} />
      ) : (
        <div
          className={cn(
            'flex flex-col gap-4 transition-opacity md:gap-6',
            query.isPlaceholderData && 'opacity-60',
          )}
          aria-busy={query.isFetching}
        >
          <FinanceSummary report={report} />
          <FlowChartCard report={report} empty={empty} />
          <Card className="gap-4">
            <CardHeader>
              <CardTitle>Roll-forward</CardTitle>
              <CardDescription>
                Each period opens where the previous one closed; the last closing is the sum of all balances
                at the end of its last day.
              </CardDescription>
            </CardHeader>
            <CardContent>
              {report ? (
                <FlowTable report={report} />
              ) : (
                <div className="grid gap-2" aria-hidden="true">
                  {['a', 'b', 'c', 'd', 'e', 'f'].map((row) => (
                    <Skeleton key={row} className="h-8 w-full" />
                  ))}
                </div>
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </div>
  );
}
