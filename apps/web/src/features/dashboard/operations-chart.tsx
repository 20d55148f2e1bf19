import type { AnalyticsGroupBy } from '@loyalty/contracts';
import { useId } from 'react';
import { Area, Bar, CartesianGrid, Cell, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { type ChartConfig, ChartContainer, ChartTooltipContent } from '@/components/ui/chart';
import { formatCompactNumber, formatNumber } from '@/lib/format';
import { DAY_MS, HOUR_MS } from './analytics-windows';
import { formatBucket, formatTick, roundTicks } from './chart-format';
import { chartSummary } from './chart-summary';
import type { ChartPoint, OperationTotals } from './dashboard-metrics';

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

/** A bucket still filling up: its bar is faded and its volume dashed, so it does not read as a drop. */
const PARTIAL_OPACITY = 0.45;

/**
 * The one curve of the volume's area and of both pieces of its line. Straight segments, because only they
 * survive the split: a smoothed curve bends each segment by the points on either side, so the solid piece
 * (it ends a bucket early), the dashed piece (two points: always straight) and the area drawn through all
 * points bent three different ways and the line left the edge of its fill.
 */
const VOLUME_CURVE = 'linear';

function formatValue(value: number, key: string): string {
  return key === 'volume' ? `${formatNumber(value)} pts` : formatNumber(value);
}

interface PlotPoint extends ChartPoint {
  partial: boolean;
  /** Volume of the complete buckets (null on the partial one). */
  settled: number | null;
  /** The last complete bucket and the partial one: the dashed end of the line. */
  soFar: number | null;
}

/** Marks the bucket that holds `now` (today, or this hour) and splits the volume line before it. */
export function plotPoints(points: ChartPoint[], groupBy: AnalyticsGroupBy, now = Date.now()): PlotPoint[] {
  const size = groupBy === 'hour' ? HOUR_MS : DAY_MS;
  const partialAt = points.findIndex((point) => Date.parse(point.timestamp) + size > now);
  return points.map((point, index) => {
    const partial = partialAt !== -1 && index >= partialAt;
    const dashed = partialAt !== -1 && index >= partialAt - 1;
    return { ...point, partial, settled: partial ? null : point.volume, soFar: dashed ? point.volume : null };
  });
}

/**
 * Bonus operations (bars, left axis) and their volume (a line over a soft area, right axis): the two differ
 * by orders of magnitude, so each has its own scale, with round ticks. The line is drawn above the bars so
 * they never hide it. `compact` drops the value axes to give a phone the width.
 */
export default function OperationsChart({
  points,
  groupBy,
  compact,
  totals,
}: {
  points: ChartPoint[];
  groupBy: AnalyticsGroupBy;
  compact: boolean;
  /** The card's exact totals: the description says what its subtitle says (the points' volumes are rounded). */
  totals: OperationTotals;
}) {
  const data = plotPoints(points, groupBy);
  const countTicks = roundTicks(Math.max(0, ...points.map((p) => p.count)));
  const volumeTicks = roundTicks(Math.max(0, ...points.map((p) => p.volume)));
  const summaryId = useId();
  const partialStamps = new Set(data.filter((p) => p.partial).map((p) => p.timestamp));
  return (
    <>
      <p id={summaryId} hidden>
        {chartSummary(points, groupBy, totals)}
      </p>
      <ChartContainer config={config} legend className="h-[280px] w-full">
        {/* A tab stop with a name and a description (its figures in words), not a bare "application":
          the arrow keys still step through the buckets for sighted keyboard users. */}
        <ComposedChart
          role="img"
          aria-label="Bonus operations chart"
          aria-describedby={summaryId}
          data={data}
          margin={{ top: 8, right: compact ? 4 : 0, bottom: 0, left: compact ? 4 : 0 }}
        >
          <defs>
            <linearGradient id="fill-volume" x1="0" y1="0" x2="0" y2="1">
              <stop offset="5%" stopColor="var(--color-volume)" stopOpacity={0.25} />
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
            domain={[0, countTicks[countTicks.length - 1]!]}
            ticks={countTicks}
            tickLine={false}
            axisLine={false}
            width={44}
            tickFormatter={formatCompactNumber}
          />
          <YAxis
            yAxisId="volume"
            orientation="right"
            hide={compact}
            domain={[0, volumeTicks[volumeTicks.length - 1]!]}
            ticks={volumeTicks}
            tickLine={false}
            axisLine={false}
            width={48}
            tickFormatter={formatCompactNumber}
          />
          <Tooltip
            cursor={{ fillOpacity: 0.6 }}
            itemSorter="dataKey"
            content={
              <ChartTooltipContent
                labelFormatter={(label) =>
                  `${formatBucket(label, groupBy)}${partialStamps.has(label) ? ' (so far)' : ''}`
                }
                valueFormatter={formatValue}
              />
            }
          />
          {/* The soft fill (and the tooltip's volume) sits behind the bars; the line is drawn above them. */}
          <Area
            yAxisId="volume"
            dataKey="volume"
            type={VOLUME_CURVE}
            stroke="none"
            fill="url(#fill-volume)"
            isAnimationActive={false}
          />
          <Bar
            yAxisId="count"
            dataKey="count"
            fill="var(--color-count)"
            radius={[4, 4, 0, 0]}
            maxBarSize={32}
          >
            {data.map((point) => (
              <Cell key={point.timestamp} fillOpacity={point.partial ? PARTIAL_OPACITY : 1} />
            ))}
          </Bar>
          <Line
            yAxisId="volume"
            dataKey="settled"
            name="volume"
            type={VOLUME_CURVE}
            stroke="var(--color-volume)"
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
            legendType="none"
            tooltipType="none"
          />
          <Line
            yAxisId="volume"
            dataKey="soFar"
            name="volume"
            type={VOLUME_CURVE}
            stroke="var(--color-volume)"
            strokeWidth={2}
            strokeDasharray="4 4"
            dot={false}
            isAnimationActive={false}
            legendType="none"
            tooltipType="none"
          />
        </ComposedChart>
      </ChartContainer>
    </>
  );
}
