import { type FocusEvent, type KeyboardEvent, useRef, useState } from 'react';

/** Where each key sends focus, as Radix's roving focus maps them for a group without an orientation. */
const FOCUS_INTENT: Record<string, 'prev' | 'next' | 'first' | 'last'> = {
  ArrowLeft: 'prev',
  ArrowUp: 'prev',
  ArrowRight: 'next',
  ArrowDown: 'next',
  PageUp: 'first',
  Home: 'first',
  PageDown: 'last',
  End: 'last',
};

/** Focuses the first candidate that takes focus, unless the focused element comes first. */
function focusFirst(candidates: HTMLElement[]) {
  const previous = document.activeElement;
  for (const candidate of candidates) {
    if (candidate === previous) return;
    candidate.focus();
    if (document.activeElement !== previous) return;
  }
}

export interface RadioToggleGroupProps<T extends string> {
  value: T;
  onChange: (value: T) => void;
  options: readonly { value: T; label: string }[];
  /** The group's accessible name. */
  label: string;
  className?: string;
  itemClassName?: string;
}

/**
 * A segmented control over a few fixed choices: the markup, ARIA and keyboard of Radix's single-choice toggle
 * group (a radiogroup of buttons with a roving tabindex, arrows that loop, Home/End, Tab into the checked
 * one, Shift+Tab out in one step) in ~1 kB, where Radix's toggle group, roving focus and collection are ~5 kB
 * compressed on the dashboard's first render. A click on the checked item keeps it checked, as Radix's
 * group does for a controlled value that refuses "none".
 */
export function RadioToggleGroup<T extends string>({
  value,
  onChange,
  options,
  label,
  className,
  itemClassName,
}: RadioToggleGroupProps<T>) {
  const group = useRef<HTMLDivElement>(null);
  const clickFocus = useRef(false);
  // The item that Tab returns to once one has had focus (Radix's current tab stop).
  const [tabStop, setTabStop] = useState<T | null>(null);
  // While Shift+Tab leaves an item, the group itself is skipped, or it would send focus straight back.
  const [tabbingBackOut, setTabbingBackOut] = useState(false);

  const items = () => Array.from(group.current?.querySelectorAll<HTMLElement>('[role="radio"]') ?? []);

  // Tab onto the group (it is the tab stop before any item has one): focus the checked item instead.
  const onGroupFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (event.target === event.currentTarget && !clickFocus.current && !tabbingBackOut) {
      const nodes = items();
      const at = (wanted: T | null) => nodes[options.findIndex((option) => option.value === wanted)];
      focusFirst([at(value), at(tabStop), ...nodes].filter((node): node is HTMLElement => !!node));
    }
    clickFocus.current = false;
  };

  const onItemKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Tab' && event.shiftKey) {
      setTabbingBackOut(true);
      return;
    }
    const intent = FOCUS_INTENT[event.key];
    if (!intent || event.target !== event.currentTarget) return;
    if (event.metaKey || event.ctrlKey || event.altKey || event.shiftKey) return;
    event.preventDefault();
    let candidates = items();
    if (intent === 'prev' || intent === 'last') candidates.reverse();
    if (intent === 'prev' || intent === 'next') {
      const from = candidates.indexOf(event.currentTarget) + 1;
      candidates = candidates.map(
        (_, index) => candidates[(from + index) % candidates.length] as HTMLElement,
      );
    }
    focusFirst(candidates);
  };

  return (
    <div
      ref={group}
      dir="ltr"
      role="radiogroup"
      aria-label={label}
      className={className}
      tabIndex={tabbingBackOut ? -1 : 0}
      style={{ outline: 'none' }}
      onMouseDown={() => {
        clickFocus.current = true;
      }}
      onFocus={onGroupFocus}
      onBlur={() => setTabbingBackOut(false)}
    >
      {options.map((option) => {
        const checked = option.value === value;
        return (
          // biome-ignore lint/a11y/useSemanticElements: Radix's toggle group markup (buttons as radios), kept as it was.
          <button
            key={option.value}
            type="button"
            data-state={checked ? 'on' : 'off'}
            role="radio"
            aria-checked={checked}
            className={itemClassName}
            tabIndex={tabStop === option.value ? 0 : -1}
            onMouseDown={() => setTabStop(option.value)}
            onFocus={() => setTabStop(option.value)}
            onKeyDown={onItemKeyDown}
            onClick={() => {
              if (!checked) onChange(option.value);
            }}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
