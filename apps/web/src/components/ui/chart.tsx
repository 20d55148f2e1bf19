import { type ComponentProps, createContext, type ReactNode, useContext, useId } from 'react';
import { ResponsiveContainer } from 'recharts';
import { cn } from '@/lib/utils';

/**
 * Recharts in the shadcn/ui "chart" style: a config names each series and gives its colour per theme;
 * inside the container every series reads `var(--color-<key>)`, so charts follow the light/dark class
 * without re-rendering. Import this only from lazily loaded code: it pulls in Recharts.
 */
export type ChartConfig = Record<string, { label: string; color: { light: string; dark: string } }>;

const ChartContext = createContext<ChartConfig | null>(null);

export function useChartConfig(): ChartConfig {
  const config = useContext(ChartContext);
  if (!config) throw new Error('useChartConfig must be used inside a <ChartContainer />');
  return config;
}

function ChartStyle({ id, config }: { id: string; config: ChartConfig }) {
  const rules = (['light', 'dark'] as const).map((theme) => {
    const vars = Object.entries(config).map(([key, item]) => `--color-${key}: ${item.color[theme]};`);
    return `${theme === 'dark' ? '.dark ' : ''}[data-chart='${id}'] { ${vars.join(' ')} }`;
  });
  return <style>{rules.join('\n')}</style>;
}

/** Sized by its class (give it a height); `legend` adds the series names under the plot. */
export function ChartContainer({
  config,
  legend = false,
  className,
  children,
  ...props
}: Omit<ComponentProps<'div'>, 'children'> & {
  config: ChartConfig;
  legend?: boolean;
  children: ComponentProps<typeof ResponsiveContainer>['children'];
}) {
  const chartId = `chart-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <ChartContext value={config}>
      <div
        data-slot="chart"
        data-chart={chartId}
        className={cn(
          "flex flex-col gap-2 text-xs [&_.recharts-cartesian-axis-tick-value]:fill-muted-foreground [&_.recharts-cartesian-grid_line[stroke='#ccc']]:stroke-border [&_.recharts-layer]:outline-hidden [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted [&_.recharts-curve.recharts-tooltip-cursor]:stroke-border [&_.recharts-surface]:outline-hidden",
          className,
        )}
        {...props}
      >
        <ChartStyle id={chartId} config={config} />
        <div className="min-h-0 min-w-0 flex-1">
          <ResponsiveContainer initialDimension={{ width: 320, height: 200 }}>{children}</ResponsiveContainer>
        </div>
        {legend && <ChartLegendContent config={config} />}
      </div>
    </ChartContext>
  );
}

/** One entry of what Recharts hands a custom tooltip. */
interface TooltipItem {
  dataKey?: unknown;
  value?: unknown;
}

export function ChartTooltipContent({
  active,
  payload,
  label,
  labelFormatter,
  valueFormatter,
}: {
  active?: boolean;
  payload?: readonly TooltipItem[];
  label?: string | number;
  labelFormatter?: (label: string) => ReactNode;
  valueFormatter?: (value: number, key: string) => ReactNode;
}) {
  const config = useChartConfig();
  if (!active || !payload?.length) return null;
  return (
    <div className="grid min-w-36 gap-1.5 rounded-lg border border-border/50 bg-background px-2.5 py-1.5 text-xs shadow-xl">
      {label !== undefined && (
        <div className="font-medium">{labelFormatter ? labelFormatter(String(label)) : label}</div>
      )}
      {payload.map((item) => {
        const key = String(item.dataKey);
        const value = Number(item.value ?? 0);
        return (
          <div key={key} className="flex items-center gap-2">
            <span
              className="size-2.5 shrink-0 rounded-[2px] forced-color-adjust-none"
              style={{ backgroundColor: `var(--color-${key})` }}
            />
            <span className="text-muted-foreground">{config[key]?.label ?? key}</span>
            <span className="ml-auto font-mono font-medium tabular-nums text-foreground">
              {valueFormatter ? valueFormatter(value, key) : value}
            </span>
          </div>
        );
      })}
    </div>
  );
}

/** The series names with their colours, in config order (an HTML legend under the SVG). */
function ChartLegendContent({ config, className }: { config: ChartConfig; className?: string }) {
  return (
    <ul className={cn('flex flex-wrap items-center justify-center gap-4 text-xs', className)}>
      {Object.entries(config).map(([key, item]) => (
        <li key={key} className="flex items-center gap-1.5">
          <span
            className="size-2.5 shrink-0 rounded-[2px] forced-color-adjust-none"
            style={{ backgroundColor: `var(--color-${key})` }}
          />
          {item.label}
        </li>
      ))}
    </ul>
  );
}
