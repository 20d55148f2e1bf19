import { useEffect } from 'react';
import { PendingWritesLeaveGuard } from '@/components/forms/use-leave-guard';
import { AppLayout } from '@/components/layout/app-layout';
import { loadToaster } from '@/lib/toast';

/** After the first screen has painted: `requestIdleCallback` where there is one, else the next task. */
function whenIdle(run: () => void): () => void {
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
}

/**
 * Everything behind sign-in, loaded as one chunk after the session check: the sidebar and the layout. The
 * Radix code of menus, tooltips and the mobile navigation sheet is not on this first render's path either:
 * each loads with the first screen or interaction that shows it. Leaving the tab while a write waits for its
 * answer asks first (PendingWritesLeaveGuard).
 */
export function AuthenticatedShell() {
  // Screens toast through sonner directly, so the shell mounts the Toaster — once the first screen has
  // painted, not in the same breath (a toast raised before is shown when it mounts: sonner replays them).
  useEffect(() => whenIdle(() => void loadToaster()), []);
  return (
    <>
      <PendingWritesLeaveGuard />
      <AppLayout />
    </>
  );
}
