import { useEffect, useRef } from 'react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select';

export interface DeferredSelectProps<T extends string> {
  value: T;
  onChange: (value: T) => void;
  options: readonly { value: T; label: string }[];
  /** The trigger's accessible name. */
  label: string;
  className?: string;
  align?: 'start' | 'center' | 'end';
}

/**
 * The Radix select that takes over from the stand-in (deferred-select.tsx). `open` and `focus` carry what the
 * user did to the stand-in: a click or an opening key opens it, a focus stays on its trigger.
 */
export function LiveSelect<T extends string>({
  value,
  onChange,
  options,
  label,
  className,
  align,
  open,
  focus,
}: DeferredSelectProps<T> & { open: boolean; focus: boolean }) {
  const trigger = useRef<HTMLButtonElement>(null);
  const firstIntent = useRef({ open, focus });
  useEffect(() => {
    // Once, as it replaces the stand-in: an opened select moves focus into its list by itself.
    if (firstIntent.current.focus && !firstIntent.current.open) trigger.current?.focus();
  }, []);
  return (
    <Select
      value={value}
      onValueChange={(next) => onChange(next as T)}
      defaultOpen={firstIntent.current.open}
    >
      <SelectTrigger ref={trigger} aria-label={label} className={className}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent align={align}>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
