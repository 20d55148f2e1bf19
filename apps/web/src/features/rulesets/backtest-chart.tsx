import type { BacktestResponse } from '@loyalty/contracts';
import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { type ChartConfig, ChartContainer, ChartTooltipContent } from '@/components/ui/chart';
import { formatCompactNumber, formatNumber } from '@/lib/format';

// Current in a muted slate, candidate in the brand colour; each a step lighter on the dark background.
const config = {
  currentPoints: {
    label: 'Current',
    color: { light: 'oklch(0.55 0.03 257)', dark: 'oklch(0.7 0.03 257)' },
  },
  candidatePoints: {
    label: 'Candidate',
    color: { light: 'oklch(0.51 0.23 277)', dark: 'oklch(0.66 0.19 277)' },
  },
} satisfies ChartConfig;

/** The categories with the most points first, so a small chart shows what matters. */
const MAX_BARS = 8;

/** A small bar chart of current against candidate points per category (loaded lazily by the panel). */
export default function BacktestChart({ rows }: { rows: BacktestResponse['byCategory'] }) {
  const summaryId = useId();
  const data = rows.slice(0, MAX_BARS).map((row) => ({ ...row, label: row.category ?? '(No category)' }));
  const summary = data
    .map(
      (d) =>
        `${d.label}: ${formatNumber(d.currentPoints)} now, ${formatNumber(d.candidatePoints)} with this ruleset`,
    )
    .join('; ');
  return (
    <>
      <p id={summaryId} hidden>
        {summary}
      </p>
      <ChartContainer config={config} legend className="h-[220px] w-full">
        <BarChart role="img" aria-label="Backtest by category chart" aria-describedby={summaryId} data={data}>
          <CartesianGrid vertical={false} />
          <XAxis dataKey="label" tickLine={false} axisLine={false} tickMargin={8} minTickGap={8} />
          {/* Compact, as Finance's chart: a full '2,500,000,000' lost its start to the chart's edge. */}
          <YAxis tickLine={false} axisLine={false} width={48} tickFormatter={formatCompactNumber} />
          <Tooltip
            content={<ChartTooltipContent valueFormatter={(v: number) => `${formatNumber(v)} pts`} />}
          />
          <Bar
            dataKey="currentPoints"
            fill="var(--color-currentPoints)"
            radius={3}
            isAnimationActive={false}
          />
          <Bar
            dataKey="candidatePoints"
            fill="var(--color-candidatePoints)"
            radius={3}
            isAnimationActive={false}
          />
        </BarChart>
      </ChartContainer>
    </>
  );
}
