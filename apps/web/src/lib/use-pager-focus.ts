import { useEffect, useRef } from 'react';

/**
 * Previous / Next that keep keyboard focus: pressing Next onto the last page disables it, and a disabled
 * button loses focus to <body> (a keyboard user would start again from the top of the page), so focus moves
 * to the other button (DataTablePagination and Client Lookup's sections). Put `previous` and `next` on the buttons'
 * refs and run their presses through `press`; while a page loads, make them `pending`, not disabled.
 */
export function usePagerFocus(previousDisabled: boolean, nextDisabled: boolean) {
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  // The button last pressed while it had focus.
  const pressed = useRef<HTMLButtonElement | null>(null);
  const press = (button: HTMLButtonElement, go: () => void) => {
    pressed.current = document.activeElement === button ? button : null;
    go();
  };
  useEffect(() => {
    const from = pressed.current;
    pressed.current = null;
    const lost = document.activeElement === from || document.activeElement === document.body;
    if (from === null || !lost) return;
    if (from === next.current && nextDisabled && !previousDisabled) previous.current?.focus();
    if (from === previous.current && previousDisabled && !nextDisabled) next.current?.focus();
  }, [previousDisabled, nextDisabled]);
  return { previous, next, press };
}
