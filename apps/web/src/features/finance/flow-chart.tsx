import type { PointsFlowRow } from '@loyalty/contracts';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { type ChartConfig, ChartContainer, ChartTooltipContent } from '@/components/ui/chart';
import { formatCompactNumber, formatNumber } from '@/lib/format';
import { formatPeriod } from './finance-range';

// Earned in the brand colour, redeemed in teal, expired in amber; each a step lighter on the dark background.
const config = {
  earned: { label: 'Earned', color: { light: 'oklch(0.51 0.23 277)', dark: 'oklch(0.66 0.19 277)' } },
  redeemed: { label: 'Redeemed', color: { light: 'oklch(0.6 0.118 184.7)', dark: 'oklch(0.72 0.13 175)' } },
  expired: { label: 'Expired', color: { light: 'oklch(0.64 0.17 55)', dark: 'oklch(0.77 0.15 70)' } },
} satisfies ChartConfig;

/** In words, for screen readers: the chart is an image with this description. */
export function flowSummary(rows: PointsFlowRow[]): string {
  const sum = (key: 'earned' | 'redeemed' | 'expired') => rows.reduce((total, row) => total + row[key], 0);
  return `${rows.length} periods: ${formatNumber(sum('earned'))} points earned, ${formatNumber(
    sum('redeemed'),
  )} redeemed, ${formatNumber(sum('expired'))} expired.`;
}

/** Earned, redeemed and expired per period, side by side (Recharts: loaded only with this chunk). */
export default function FlowChart({ rows, compact }: { rows: PointsFlowRow[]; compact: boolean }) {
  return (
    <ChartContainer config={config} legend className="h-[280px] w-full">
      <BarChart
        role="img"
        aria-label={`Points flow chart. ${flowSummary(rows)}`}
        data={rows}
        margin={{ top: 8, right: 4, bottom: 0, left: compact ? 4 : 0 }}
      >
        <CartesianGrid vertical={false} />
        <XAxis
          dataKey="period"
          tickLine={false}
          axisLine={false}
          tickMargin={8}
          minTickGap={compact ? 16 : 28}
          tickFormatter={formatPeriod}
        />
        <YAxis
          hide={compact}
          tickLine={false}
          axisLine={false}
          width={48}
          tickFormatter={formatCompactNumber}
        />
        <Tooltip
          cursor={{ fillOpacity: 0.6 }}
          content={
            <ChartTooltipContent
              labelFormatter={formatPeriod}
              valueFormatter={(value) => `${formatNumber(value)} pts`}
            />
          }
        />
        <Bar dataKey="earned" fill="var(--color-earned)" radius={[3, 3, 0, 0]} maxBarSize={24} />
        <Bar dataKey="redeemed" fill="var(--color-redeemed)" radius={[3, 3, 0, 0]} maxBarSize={24} />
        <Bar dataKey="expired" fill="var(--color-expired)" radius={[3, 3, 0, 0]} maxBarSize={24} />
      </BarChart>
    </ChartContainer>
  );
}
