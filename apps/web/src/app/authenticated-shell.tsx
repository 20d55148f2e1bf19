import { AppLayout } from '@/components/layout/app-layout';
import { TooltipProvider } from '@/components/ui/tooltip';

/**
 * Everything behind sign-in, loaded as one chunk after the session check: the sidebar, menus and
 * tooltips (Radix popper, dialog, dropdown) are not part of the first download of /login.
 */
export function AuthenticatedShell() {
  return (
    <TooltipProvider delayDuration={0} skipDelayDuration={300}>
      <AppLayout />
    </TooltipProvider>
  );
}
