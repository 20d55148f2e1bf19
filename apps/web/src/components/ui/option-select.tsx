import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

type TriggerProps = Omit<ComponentProps<typeof SelectTrigger>, 'children'>;

/**
 * A Select over a fixed list of choices, each with its label. The trigger takes the rest of the props (its
 * accessible name, size, a form field's id and aria, a form library's ref). `lead` is an extra first
 * choice (a filter's 'All …'); `itemClassName` styles the list's own choices only.
 */
export function OptionSelect<T extends string>({
  value,
  onChange,
  options,
  lead,
  itemClassName,
  ...trigger
}: TriggerProps & {
  value: T;
  onChange: (value: T) => void;
  options: readonly SelectOption<T>[];
  lead?: SelectOption<T>;
  itemClassName?: string;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as T)}>
      <SelectTrigger {...trigger}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {lead && <SelectItem value={lead.value}>{lead.label}</SelectItem>}
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value} className={cn(itemClassName)}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

const ALL = 'all';

/**
 * A table filter: 'All …' (no filter, `undefined`) and then the choices. `label` names it for screen
 * readers ('Filter by status').
 */
export function FilterSelect<T extends string>({
  label,
  allLabel,
  value,
  onChange,
  options,
  className,
  itemClassName,
}: {
  label: string;
  allLabel: string;
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  options: readonly SelectOption<T>[];
  /** The trigger's width (and more), e.g. 'w-36'. */
  className?: string;
  itemClassName?: string;
}) {
  return (
    <OptionSelect<T | typeof ALL>
      aria-label={label}
      className={cn('h-8', className)}
      value={value ?? ALL}
      onChange={(next) => onChange(next === ALL ? undefined : (next as T))}
      lead={{ value: ALL, label: allLabel }}
      options={options}
      itemClassName={itemClassName}
    />
  );
}
