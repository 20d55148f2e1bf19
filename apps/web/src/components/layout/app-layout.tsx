import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { AppSidebar } from './app-sidebar';
import { PageSkeleton } from './page-skeleton';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';
import { TopBar } from './top-bar';

/** The authenticated shell (spec section 2 "Shell"): sidebar, top bar, and the routed screen. */
export function AppLayout() {
  return (
    <>
      <SkipLink />
      <SidebarProvider>
        <AppSidebar />
        <SidebarInset>
          <TopBar />
          <main
            id={MAIN_CONTENT_ID}
            tabIndex={-1}
            data-focus-target
            className="flex min-w-0 flex-1 flex-col gap-6 p-4 md:p-6"
          >
            <Suspense fallback={<PageSkeleton />}>
              <Outlet />
            </Suspense>
          </main>
        </SidebarInset>
      </SidebarProvider>
    </>
  );
}
