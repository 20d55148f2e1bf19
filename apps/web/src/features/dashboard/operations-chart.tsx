import type { AnalyticsGroupBy } from '@loyalty/contracts';
import { Area, Bar, CartesianGrid, ComposedChart, Tooltip, XAxis, YAxis } from 'recharts';
import { type ChartConfig, ChartContainer, ChartTooltipContent } from '@/components/ui/chart';
import { formatNumber } from '@/lib/format';
import { formatBucket, formatCompact, formatTick } from './chart-format';
import type { ChartPoint } from './dashboard-metrics';

// Operations in the brand colour, volume in teal; each a step lighter on the dark background.
const config = {
  count: {
    label: 'Operations',
    color: { light: 'oklch(0.51 0.23 277)', dark: 'oklch(0.66 0.19 277)' },
  },
  volume: {
    label: 'Volume (points)',
    color: { light: 'oklch(0.6 0.118 184.7)', dark: 'oklch(0.72 0.13 175)' },
  },
} satisfies ChartConfig;

function formatValue(value: number, key: string): string {
  return key === 'volume' ? `${formatNumber(value)} pts` : formatNumber(value);
}

/**
 * Bonus operations (bars, left axis) and their volume (area drawn over them, right axis): the two differ by orders of
 * magnitude, so each has its own scale. `compact` drops the value axes to give a phone the width.
 */
export default function OperationsChart({
  points,
  groupBy,
  compact,
}: {
  points: ChartPoint[];
  groupBy: AnalyticsGroupBy;
  compact: boolean;
}) {
  return (
    <ChartContainer config={config} legend className="h-[280px] w-full" aria-label="Bonus operations chart">
      <ComposedChart
        data={points}
        margin={{ top: 8, right: compact ? 4 : 0, bottom: 0, left: compact ? 4 : 0 }}
      >
        <defs>
          <linearGradient id="fill-volume" x1="0" y1="0" x2="0" y2="1">
            <stop offset="5%" stopColor="var(--color-volume)" stopOpacity={0.35} />
            <stop offset="95%" stopColor="var(--color-volume)" stopOpacity={0.02} />
          </linearGradient>
        </defs>
        <CartesianGrid vertical={false} />
        <XAxis
          dataKey="timestamp"
          scale="band"
          tickLine={false}
          axisLine={false}
          tickMargin={8}
          minTickGap={compact ? 20 : 32}
          tickFormatter={(value: string) => formatTick(value, groupBy)}
        />
        <YAxis
          yAxisId="count"
          hide={compact}
          allowDecimals={false}
          tickLine={false}
          axisLine={false}
          width={44}
          tickFormatter={formatCompact}
        />
        <YAxis
          yAxisId="volume"
          orientation="right"
          hide={compact}
          allowDecimals={false}
          tickLine={false}
          axisLine={false}
          width={48}
          tickFormatter={formatCompact}
        />
        <Tooltip
          cursor={{ fillOpacity: 0.6 }}
          itemSorter="dataKey"
          content={
            <ChartTooltipContent
              labelFormatter={(label) => formatBucket(label, groupBy)}
              valueFormatter={formatValue}
            />
          }
        />
        <Bar
          yAxisId="count"
          dataKey="count"
          fill="var(--color-count)"
          radius={[4, 4, 0, 0]}
          maxBarSize={32}
        />
        <Area
          yAxisId="volume"
          dataKey="volume"
          type="monotone"
          stroke="var(--color-volume)"
          strokeWidth={2}
          fill="url(#fill-volume)"
        />
      </ComposedChart>
    </ChartContainer>
  );
}
