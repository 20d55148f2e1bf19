import { ToggleGroup } from 'radix-ui';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { CHART_RANGE_IDS, CHART_RANGES, type ChartRange } from './analytics-windows';

function isChartRange(value: string): value is ChartRange {
  return Object.hasOwn(CHART_RANGES, value);
}

/**
 * The chart's range: a segmented control where the card is wide, a select where it is narrow (the
 * dashboard-01 pattern). Only one of the two is displayed, so only one is in the accessibility tree.
 */
export function RangePicker({
  value,
  onChange,
}: {
  value: ChartRange;
  onChange: (range: ChartRange) => void;
}) {
  const choose = (next: string) => {
    if (isChartRange(next)) onChange(next);
  };
  return (
    <>
      <ToggleGroup.Root
        type="single"
        value={value}
        onValueChange={choose}
        aria-label="Chart range"
        className="hidden overflow-hidden rounded-md border shadow-xs @[640px]/chart:flex"
      >
        {CHART_RANGE_IDS.map((id) => (
          <ToggleGroup.Item
            key={id}
            value={id}
            className="focus-inset h-8 whitespace-nowrap border-l px-3 text-sm font-medium text-muted-foreground outline-none transition-colors first:border-l-0 hover:bg-accent hover:text-accent-foreground data-[state=on]:bg-accent data-[state=on]:text-accent-foreground"
          >
            {CHART_RANGES[id].label}
          </ToggleGroup.Item>
        ))}
      </ToggleGroup.Root>
      <Select value={value} onValueChange={choose}>
        <SelectTrigger aria-label="Chart range" className="h-8 w-40 @[640px]/chart:hidden">
          <SelectValue />
        </SelectTrigger>
        <SelectContent align="end">
          {CHART_RANGE_IDS.map((id) => (
            <SelectItem key={id} value={id}>
              {CHART_RANGES[id].label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </>
  );
}
