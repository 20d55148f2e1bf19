import { type Mutation, useIsMutating } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isFollowingOtherUser } from '@/lib/session';

/**
 * While `active` (a form with typed changes, a write waiting for its answer), reloading or closing the tab
 * asks the browser's "Leave site?" first: without it, what was typed, or the knowledge of whether a write
 * was done, was lost without a word. Moves inside the console are not asked about (no router blocker).
 */
export function useLeaveGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // The tab reloads as the user another tab signed in (lib/session.ts followOtherUser): what was typed
      // cannot be saved as the first user any more, and "Stay" would leave a tab that sends nothing.
      if (isFollowingOtherUser()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set; its text is not shown by any of them.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);
}

/** A mutation that may change something: any but those whose meta says they write nothing (lib/query-meta.ts). */
function isWrite(mutation: Mutation<unknown, Error, unknown, unknown>): boolean {
  const readOnly = mutation.options.meta?.readOnly;
  if (typeof readOnly === 'function') return !readOnly(mutation.state.variables);
  return readOnly !== true;
}

/**
 * The guard of every write of the console at once: while any mutation that writes waits for its answer,
 * leaving asks. One that writes nothing (a backtest, a client search, a file checked) is not asked about.
 * Mounted once behind sign-in (app/authenticated-shell.tsx); forms guard their typed changes themselves.
 */
export function PendingWritesLeaveGuard(): null {
  useLeaveGuard(useIsMutating({ predicate: isWrite }) > 0);
  return null;
}
