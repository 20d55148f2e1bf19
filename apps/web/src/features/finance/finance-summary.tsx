import type { PointsFlowReport } from '@loyalty/contracts';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatPoints } from '@/lib/points';
import { cn } from '@/lib/utils';

const NO_VALUE = '—';

/** 0.1234 → "12.34%"; null (nothing credited in the range) → "—". */
export function formatRate(rate: number | null): string {
  return rate === null ? NO_VALUE : `${(rate * 100).toFixed(2)}%`;
}

function Figure({
  label,
  hint,
  className,
  children,
}: {
  label: string;
  hint: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid min-w-0 content-start gap-1 rounded-lg border p-3', className)}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="grid min-w-0 gap-0.5">
        {/* 'pts' goes to the next line before a figure leaves its box (the client summary does the same). */}
        <span className="text-lg font-semibold tabular-nums wrap-anywhere">{children}</span>
        <span className="text-xs text-muted-foreground">{hint}</span>
      </dd>
    </div>
  );
}

/** The range's rates and what the programme owes now. */
export function FinanceSummary({ report }: { report: PointsFlowReport | undefined }) {
  return (
    <div className="grid gap-4 @4xl/main:grid-cols-2">
      <Card className="gap-4">
        <CardHeader>
          <CardTitle>Rates</CardTitle>
          <CardDescription>Over the selected range, against points credited.</CardDescription>
        </CardHeader>
        <CardContent>
          {report ? (
            <dl className="grid gap-3 sm:grid-cols-2">
              <Figure label="Redemption rate" hint="Redeemed ÷ (earned + adjusted)">
                {formatRate(report.redemptionRate)}
              </Figure>
              <Figure label="Breakage rate" hint="Expired ÷ (earned + adjusted)">
                {formatRate(report.breakageRate)}
              </Figure>
            </dl>
          ) : (
            <Skeleton className="h-20 w-full" />
          )}
        </CardContent>
      </Card>
      <Card className="gap-4">
        <CardHeader>
          <CardTitle>Outstanding</CardTitle>
          <CardDescription>Points the programme owes now, whatever the range.</CardDescription>
        </CardHeader>
        {/* Columns by the card's own width, not the page's: in half of 1280 px three columns of ten-digit
            figures ran into each other. A row each there; from 28rem Total above two columns, from 48rem
            three: each column then holds '9,999,999,999.99' on one line ('pts' may wrap). */}
        <CardContent className="@container">
          {report ? (
            <dl className="grid gap-3 @md:grid-cols-2 @3xl:grid-cols-3">
              <Figure label="Total" hint="Σ balances" className="@md:col-span-2 @3xl:col-span-1">
                {formatPoints(report.outstanding.total)}
              </Figure>
              <Figure label="Pending" hint="Not spendable yet">
                {formatPoints(report.outstanding.pending)}
              </Figure>
              <Figure label="Expiring in 30 days" hint="Lots that lapse soon">
                {formatPoints(report.outstanding.expiring30Days)}
              </Figure>
            </dl>
          ) : (
            <Skeleton className="h-20 w-full" />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
