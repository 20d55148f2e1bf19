import { useRef } from 'react';
import { type FocusPlace, focusNear, notePlace } from './focus-fallback';

/** The element to give focus back to: a menu item that opened the dialog gives way to its menu's trigger. */
function focusOrigin(): HTMLElement | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest('[role="menu"]');
  const triggerId = menu?.getAttribute('aria-labelledby');
  if (triggerId) return document.getElementById(triggerId) ?? active;
  return active;
}

/**
 * Where each open dialog was opened from, by its content element: a dialog opened from inside another
 * ("Endpoint Added" from Add Endpoint's submit) falls back to where that one came from once both are gone.
 */
const openedFrom = new WeakMap<Element, FocusPlace>();

/**
 * Radix dialogs opened without a Trigger (from a row menu or a button elsewhere) send focus to <body>
 * when they close. Spread these handlers on the dialog content: focus returns to where it came from, or,
 * when that is gone or disabled (a deleted row's menu, a "Block selected" with nothing left selected), to
 * the nearest place that can take it (lib/focus-fallback.ts), never <body>.
 * `onOpen` runs after the origin is recorded (to focus the first field yourself).
 */
export function useReturnFocus(onOpen?: (event: Event) => void) {
  const origin = useRef<FocusPlace | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      const element = focusOrigin();
      const outer = element?.closest('[role="dialog"],[role="alertdialog"]');
      origin.current = element ? notePlace(element, (outer && openedFrom.get(outer)) ?? null) : null;
      if (event.target instanceof Element && origin.current) openedFrom.set(event.target, origin.current);
      onOpen?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      const place = origin.current;
      origin.current = null;
      event.preventDefault();
      focusNear(place);
    },
  };
}
