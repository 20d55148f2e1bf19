import { ToggleGroup } from 'radix-ui';
import { DeferredSelect } from '@/components/ui/deferred-select';
import { CHART_RANGE_IDS, CHART_RANGES, type ChartRange } from './analytics-windows';

function isChartRange(value: string): value is ChartRange {
  return Object.hasOwn(CHART_RANGES, value);
}

const OPTIONS = CHART_RANGE_IDS.map((id) => ({ value: id, label: CHART_RANGES[id].label }));

/**
 * The chart's range: a segmented control where the card is wide, a select where it is narrow (the
 * dashboard-01 pattern). Only one of the two is displayed, so only one is in the accessibility tree. The
 * select is the phone's, on its first screen: its Radix code loads when it is first touched or focused.
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
      <DeferredSelect
        label="Chart range"
        value={value}
        onChange={onChange}
        options={OPTIONS}
        className="h-8 w-40 @[640px]/chart:hidden"
        align="end"
      />
    </>
  );
}
