import { ChevronDownIcon } from 'lucide-react';
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/utils';
import type { DeferredSelectProps } from './deferred-select-live';
import { selectTriggerClass } from './select-trigger-class';

type LiveModule = typeof import('./deferred-select-live');

let live: LiveModule | undefined;
let loading: Promise<LiveModule> | undefined;
const loadLive = () => {
  loading ??= import('./deferred-select-live').then((module) => {
    live = module;
    return module;
  });
  return loading;
};

// The keys that open a Radix select from its trigger.
const OPEN_KEYS = [' ', 'Enter', 'ArrowUp', 'ArrowDown'];

/**
 * A select over a few fixed choices whose Radix code (the select, its popper, focus and scroll handling, ~25
 * kB compressed) is not on the first render of the screen that shows it: until the user comes near it, a
 * stand-in with the trigger's markup, look and name is drawn; the first pointer or focus on it loads the
 * real one, which takes its place with what the user did carried over (opened by a click or an opening
 * key, or just focused). On the dashboard this keeps the chart's range picker out of the phone's first
 * paint.
 */
export function DeferredSelect<T extends string>(props: DeferredSelectProps<T>) {
  const [module, setModule] = useState(live);
  const [wanted, setWanted] = useState(false);
  const intent = useRef({ open: false, focus: false });
  const pointerType = useRef('touch');

  useEffect(() => {
    if (!wanted || module) return;
    let current = true;
    loadLive().then(
      (loaded) => current && setModule(loaded),
      (error: unknown) => console.error('Could not load the select', error),
    );
    return () => {
      current = false;
    };
  }, [wanted, module]);

  if (module) {
    // Keyed by nothing that changes: the live select stays mounted from here on.
    return <module.LiveSelect {...props} open={intent.current.open} focus={intent.current.focus} />;
  }

  const want = (open: boolean) => {
    if (open) intent.current.open = true;
    setWanted(true);
  };
  const selected = props.options.find((option) => option.value === props.value);
  return (
    <button
      type="button"
      role="combobox"
      aria-expanded={false}
      aria-autocomplete="none"
      aria-label={props.label}
      dir="ltr"
      data-state="closed"
      data-slot="select-trigger"
      className={cn(selectTriggerClass, props.className)}
      onPointerEnter={() => want(false)}
      onFocus={() => {
        intent.current.focus = true;
        want(false);
      }}
      onBlur={() => {
        intent.current.focus = false;
      }}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        pointerType.current = event.pointerType;
        // As Radix does: a mouse opens on press (and focus follows on click), touch and pen on click.
        if (event.button === 0 && !event.ctrlKey && event.pointerType === 'mouse') {
          event.preventDefault();
          want(true);
        } else want(false);
      }}
      onClick={(event) => {
        event.currentTarget.focus();
        if (pointerType.current !== 'mouse') want(true);
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        if (!OPEN_KEYS.includes(event.key)) return;
        event.preventDefault();
        want(true);
      }}
    >
      <span style={{ pointerEvents: 'none' }}>{selected?.label}</span>
      <ChevronDownIcon className="size-4 opacity-50" aria-hidden="true" />
    </button>
  );
}
