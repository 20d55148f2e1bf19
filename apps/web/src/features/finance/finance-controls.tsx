import { useId } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { FlowParams } from './finance-api';
import {
  FIRST_DAY,
  GROUP_BY_OPTIONS,
  LAST_DAY,
  RANGE_PRESET_IDS,
  RANGE_PRESETS,
  type RangePreset,
} from './finance-range';

const presetOptions = RANGE_PRESET_IDS.map((id) => ({ value: id, label: RANGE_PRESETS[id].label }));

function Choice<T extends string>({
  id,
  value,
  options,
  onChange,
}: {
  id: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as T)}>
      <SelectTrigger id={id} className="w-full">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** Range (a preset or two days) and grouping; editing a day makes the range custom. */
export function FinanceControls({
  preset,
  params,
  problem,
  onPreset,
  onChange,
}: {
  preset: RangePreset;
  params: FlowParams;
  problem: string | null;
  onPreset: (preset: RangePreset) => void;
  onChange: (params: FlowParams) => void;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': problemId } : {};
  return (
    <div className="grid gap-2">
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
        <div className="col-span-2 grid gap-1.5 sm:w-44">
          <Label htmlFor={`${id}-preset`}>Range</Label>
          <Choice id={`${id}-preset`} value={preset} onChange={onPreset} options={presetOptions} />
        </div>
        <div className="grid gap-1.5 sm:w-40">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={params.from}
            min={FIRST_DAY}
            max={params.to || LAST_DAY}
            onChange={(e) => onChange({ ...params, from: e.target.value })}
            {...invalid}
          />
        </div>
        <div className="grid gap-1.5 sm:w-40">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input
            id={`${id}-to`}
            type="date"
            value={params.to}
            min={params.from || FIRST_DAY}
            max={LAST_DAY}
            onChange={(e) => onChange({ ...params, to: e.target.value })}
            {...invalid}
          />
        </div>
        <div className="col-span-2 grid gap-1.5 sm:w-36">
          <Label htmlFor={`${id}-group`}>Group</Label>
          <Choice
            id={`${id}-group`}
            value={params.groupBy}
            onChange={(groupBy) => onChange({ ...params, groupBy })}
            options={GROUP_BY_OPTIONS}
          />
        </div>
      </div>
      <p id={problemId} role={problem ? 'alert' : undefined} className="min-h-5 text-sm text-destructive">
        {problem}
      </p>
    </div>
  );
}
