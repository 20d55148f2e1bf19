import { useRef } from 'react';

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
 * Radix dialogs opened without a Trigger (from a row menu or a button elsewhere) send focus to <body>
 * when they close. Spread these handlers on the dialog content: focus returns to where it came from.
 * `onOpen` runs after the origin is recorded (to focus the first field yourself).
 */
export function useReturnFocus(onOpen?: (event: Event) => void) {
  const origin = useRef<{ element: HTMLElement; dialog: HTMLElement | null } | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      const element = focusOrigin();
      origin.current = element
        ? { element, dialog: element.closest<HTMLElement>('[role="dialog"],[role="alertdialog"]') }
        : null;
      onOpen?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      const { element, dialog } = origin.current ?? {};
      origin.current = null;
      // The origin may be gone (a Block button disappears once its card is blocked): then the dialog it sat in.
      const target = element?.isConnected ? element : dialog?.isConnected ? dialog : null;
      if (target) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
