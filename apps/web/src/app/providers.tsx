import { QueryClientProvider } from '@tanstack/react-query';
import { type FocusEvent, type ReactNode, useRef, useState } from 'react';
import { keepFocusNear, notePlace } from '@/lib/focus-fallback';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import { useToasterWanted } from '@/lib/toast';
import { createQueryClient } from './query-client';

// sonner stays out of the first download: its Toaster mounts when a toast is first wanted (lib/toast.ts).
const toasterModule = lazyModule(() => import('@/components/ui/sonner'));

/**
 * Sonner remembers the element focus came from when it enters the toasts and sends focus back there whenever
 * it leaves them, so Tab past the last control of a page (the Toaster is last in it) went to a toast and back
 * to that control, again and again, until the toast went (placed first, Shift+Tab at the top would do the same).
 * Only its hotkey (Alt+T, which focuses the list itself) is let through: Alt+T, a look, Tab or Escape, and
 * focus is back where the user was. Focus that reaches a toast from the page (Tab, a click), and focus moving
 * on among the toasts after it, is kept from sonner, so leaving goes wherever the key or the pointer sends it.
 * What sonner did for such focus and is still wanted is done here: a toast that expires (or is closed) while it
 * has focus hands it back to where it came from, not to <body>.
 */
function useToastFocusGuard() {
  const byHotkey = useRef(false);
  return (event: FocusEvent<HTMLDivElement>) => {
    const from = event.relatedTarget;
    if (!(from instanceof Node && event.currentTarget.contains(from))) {
      byHotkey.current = event.target instanceof Element && event.target.matches('[data-sonner-toaster]');
      // Focus from the page: if its toast goes while it has focus, focus goes back there (focus-fallback.ts).
      if (!byHotkey.current && from instanceof HTMLElement && event.target instanceof HTMLElement) {
        keepFocusNear(event.target, notePlace(from));
      }
    }
    if (!byHotkey.current) event.stopPropagation();
  };
}

function DeferredToaster() {
  const wanted = useToasterWanted();
  const Toaster = useLazyModule(toasterModule, wanted)?.Toaster;
  const onFocusCapture = useToastFocusGuard();
  return Toaster ? (
    <div className="contents" onFocusCapture={onFocusCapture}>
      <Toaster />
    </div>
  ) : null;
}

// Tooltips bring their own provider (components/ui/tooltip.tsx): no Radix code on the first download.
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
}
