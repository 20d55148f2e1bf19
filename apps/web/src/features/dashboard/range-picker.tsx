import { DeferredSelect } from '@/components/ui/deferred-select';
import { RadioToggleGroup } from '@/components/ui/radio-toggle-group';
import { CHART_RANGE_IDS, CHART_RANGES, type ChartRange } from './analytics-windows';

const OPTIONS = CHART_RANGE_IDS.map((id) => ({ value: id, label: CHART_RANGES[id].label }));

/**
 * The chart's range: a segmented control where the card is wide, a select where it is narrow (the
 * dashboard-01 pattern). Only one of the two is displayed, so only one is in the accessibility tree. The
 * select is the phone's, on its first screen: its Radix code loads when it is first touched or focused. The
 * segmented control is our own (radio-toggle-group.tsx), not Radix's toggle group: same markup and keys, and
 * none of Radix's roving-focus code on the dashboard's first render. In forced colours (Windows High
 * Contrast) the checked item's background is painted over: it takes the system's selection colours.
 */
export function RangePicker({
  value,
  onChange,
}: {
  value: ChartRange;
  onChange: (range: ChartRange) => void;
}) {
  return (
    <>
      <RadioToggleGroup
        label="Chart range"
        value={value}
        onChange={onChange}
        options={OPTIONS}
        className="hidden overflow-hidden rounded-md border shadow-xs @[640px]/chart:flex"
        itemClassName="focus-inset h-8 whitespace-nowrap border-l px-3 text-sm font-medium text-muted-foreground outline-none transition-colors first:border-l-0 hover:bg-accent hover:text-accent-foreground data-[state=on]:bg-accent data-[state=on]:text-accent-foreground forced-colors:data-[state=on]:bg-[Highlight] forced-colors:data-[state=on]:text-[HighlightText] forced-colors:data-[state=on]:forced-color-adjust-none"
      />
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
