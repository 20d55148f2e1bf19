import {
  POINTS_FLOW_END_DAY,
  POINTS_FLOW_FIRST_DAY,
  POINTS_FLOW_MAX_DAYS,
  type PointsFlowGroupBy,
} from '@loyalty/contracts';
import { serverNow } from '@/lib/server-clock';
import type { FlowParams } from './finance-api';

const DAY_MS = 86_400_000;

export const RANGE_PRESETS = {
  '7d': { label: 'Last 7 days' },
  '30d': { label: 'Last 30 days' },
  '90d': { label: 'Last 90 days' },
  '12m': { label: 'Last 12 months' },
  custom: { label: 'Custom' },
} as const;
export type RangePreset = keyof typeof RANGE_PRESETS;
export const RANGE_PRESET_IDS = Object.keys(RANGE_PRESETS) as RangePreset[];

/** A UTC day as the report takes it (YYYY-MM-DD): the report's days are UTC days. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The days and grouping of a preset, ending today (UTC, by the server's clock: lib/server-clock.ts); 12 months
 * start on the first of a month.
 */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, now = serverNow()): FlowParams {
  const to = utcDay(now);
  if (preset === '12m') {
    const d = new Date(now);
    return { from: utcDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)), to, groupBy: 'month' };
  }
  const days = preset === '7d' ? 7 : preset === '30d' ? 30 : 90;
  return { from: utcDay(now - (days - 1) * DAY_MS), to, groupBy: 'day' };
}

/** The first and the last day the report takes (2000 to 2099). */
export const FIRST_DAY = POINTS_FLOW_FIRST_DAY;
export const LAST_DAY = utcDay(Date.parse(POINTS_FLOW_END_DAY) - DAY_MS);

/** What is wrong with a custom range, in the words shown under it; null when the server will take it. */
export function rangeProblem(params: FlowParams): string | null {
  if (!params.from || !params.to) return 'Choose both dates.';
  if (params.from < FIRST_DAY || params.to > LAST_DAY) return 'Choose dates from 2000 to 2099.';
  if (params.to < params.from) return 'The end date is before the start date.';
  const days = (Date.parse(params.to) - Date.parse(params.from)) / DAY_MS + 1;
  const max = POINTS_FLOW_MAX_DAYS[params.groupBy];
  if (days > max) {
    return params.groupBy === 'day'
      ? `Daily rows cover at most ${max} days; group by month for longer ranges.`
      : `The range may be at most ${max} days.`;
  }
  return null;
}

export const GROUP_BY_OPTIONS: ReadonlyArray<{ value: PointsFlowGroupBy; label: string }> = [
  { value: 'day', label: 'By day' },
  { value: 'month', label: 'By month' },
];

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "Mar 29" for a day, "Mar 2025" for a month (the report's periods are UTC). */
export function formatPeriod(period: string): string {
  return period.length === 7
    ? monthLabel.format(new Date(`${period}-01T00:00:00Z`))
    : dayLabel.format(new Date(`${period}T00:00:00Z`));
}
