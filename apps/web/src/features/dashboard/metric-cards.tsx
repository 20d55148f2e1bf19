import { ActivityIcon, CoinsIcon, CreditCardIcon, UsersIcon } from 'lucide-react';
import { formatNumber } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import { operationTotals, peakCount, totalCount } from './dashboard-metrics';
import { MetricCard, NO_VALUE } from './metric-card';
import type { DashboardData } from './use-dashboard-data';

/** Spec section 2 'Four metric cards', with the metric windows of section 9. */
export function MetricCards({ data }: { data: DashboardData }) {
  const summary = data.summary.data;
  const operations = data.operations.data && operationTotals(data.operations.data);
  const cards = data.cards.data;
  const users = data.activeUsers.data;

  return (
    <div className="grid grid-cols-1 gap-4 @xl/main:grid-cols-2 @4xl/main:grid-cols-4">
      <MetricCard
        title="Total Bonuses"
        icon={<CoinsIcon />}
        value={summary && formatNumber(summary.totalPoints)}
        unit="pts"
        loading={data.summary.loading}
      >
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          <span>
            <span className="text-muted-foreground">Active: </span>
            <span className="font-medium tabular-nums">
              {summary ? formatPoints(summary.activePoints) : NO_VALUE}
            </span>
          </span>
          <span>
            <span className="text-muted-foreground">Held: </span>
            <span className="font-medium tabular-nums">
              {summary ? formatPoints(summary.heldPoints) : NO_VALUE}
            </span>
          </span>
        </div>
      </MetricCard>
      <MetricCard
        title="Operations (24h)"
        icon={<ActivityIcon />}
        value={operations && formatNumber(operations.count)}
        loading={data.operations.loading}
      >
        <span>
          <span className="text-muted-foreground">Volume: </span>
          <span className="font-medium tabular-nums">
            {operations ? formatPoints(operations.volume) : NO_VALUE}
          </span>
        </span>
      </MetricCard>
      <MetricCard
        title="New Cards (7d)"
        icon={<CreditCardIcon />}
        value={cards && formatNumber(totalCount(cards.issuedCards))}
        loading={data.cards.loading}
      >
        <span className="text-muted-foreground">Cards issued this week</span>
      </MetricCard>
      <MetricCard
        title="Active Users (7d)"
        icon={<UsersIcon />}
        value={users && formatNumber(peakCount(users.activeUsers))}
        loading={data.activeUsers.loading}
      >
        <span className="text-muted-foreground">Peak daily active users</span>
      </MetricCard>
    </div>
  );
}
