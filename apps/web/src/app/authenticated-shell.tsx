import { useEffect } from 'react';
import { AppLayout } from '@/components/layout/app-layout';
import { TooltipProvider } from '@/components/ui/tooltip';
import { loadToaster } from '@/lib/toast';

/**
 * Everything behind sign-in, loaded as one chunk after the session check: the sidebar, menus and
 * tooltips (Radix popper, dialog, dropdown) are not part of the first download of /login.
 */
export function AuthenticatedShell() {
  // Screens toast through sonner directly: the Toaster is there from the start of a signed-in visit.
  useEffect(() => void loadToaster(), []);
  return (
    <TooltipProvider delayDuration={0} skipDelayDuration={300}>
      <AppLayout />
    </TooltipProvider>
  );
}
