import type { PointsSummary } from '@loyalty/contracts';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber, formatTimestamp } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import {
  formatPercent,
  operationTotalsToday,
  peakCount,
  plural,
  totalCount,
  utilizationPercent,
} from './dashboard-metrics';
import { NO_VALUE } from './metric-card';
import type { DashboardData } from './use-dashboard-data';

function Item({ label, loading, children }: { label: string; loading?: boolean; children: ReactNode }) {
  return (
    <div className="grid min-w-0 content-start gap-1 rounded-lg border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="grid min-w-0 gap-1">{loading ? <Skeleton className="h-6 w-28" /> : children}</dd>
    </div>
  );
}

function Caption({ children }: { children: ReactNode }) {
  return <span className="text-xs text-muted-foreground">{children}</span>;
}

function Utilization({ summary }: { summary: PointsSummary }) {
  const percent = utilizationPercent(summary);
  const text = formatPercent(percent);
  return (
    <>
      <span className="text-lg font-semibold tabular-nums">{text}</span>
      <div
        role="progressbar"
        aria-label="Bonus Utilization"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent * 10) / 10}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-muted forced-colors:border"
      >
        {/* In forced colours (Windows High Contrast) a background is painted over with Canvas: the fill keeps
            a system colour, the track gets a border, or the bar is not there at all. */}
        <div
          className="h-full rounded-full bg-brand transition-[width] forced-colors:bg-[Highlight] forced-colors:forced-color-adjust-none"
          style={{ width: `${Math.min(100, Math.max(0, percent))}%` }}
        />
      </div>
      <Caption>
        {formatNumber(summary.activePoints)} of {formatPoints(summary.totalPoints)} active
      </Caption>
    </>
  );
}

/** Spec section 2 'System Overview': rendered once the points summary has loaded. */
export function SystemOverview({ data, summary }: { data: DashboardData; summary: PointsSummary }) {
  const today = data.operations.data && operationTotalsToday(data.operations.data);
  const cards = data.cards.data;
  const users = data.activeUsers.data;

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>System Overview</CardTitle>
        <CardDescription>Points in circulation and this week's activity.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-2">
          <Item label="Last updated">
            <span className="font-medium tabular-nums">{formatTimestamp(summary.calculatedAt)}</span>
          </Item>
          <Item label="Bonus Utilization">
            <Utilization summary={summary} />
          </Item>
          <Item label="Operations Today" loading={data.operations.loading}>
            <span className="text-lg font-semibold tabular-nums">
              {today ? formatNumber(today.count) : NO_VALUE}
            </span>
            <Caption>{today ? `${formatPoints(today.volume)} volume · ` : ''}since 00:00 UTC</Caption>
          </Item>
          <Item label="Expiring (30d)">
            <span className="text-lg font-semibold tabular-nums">
              {summary.expiring30Days === undefined ? NO_VALUE : formatPoints(summary.expiring30Days)}
            </span>
            <Caption>points whose lots expire within 30 days</Caption>
          </Item>
          <Item label="Growth This Week" loading={data.cards.loading || data.activeUsers.loading}>
            <span className="font-medium tabular-nums">
              {cards ? `+${plural(totalCount(cards.issuedCards), 'new card', 'new cards')}` : NO_VALUE}
            </span>
            <span className="font-medium tabular-nums">
              {users ? plural(peakCount(users.activeUsers), 'peak user', 'peak users') : NO_VALUE}
            </span>
          </Item>
        </dl>
      </CardContent>
    </Card>
  );
}
