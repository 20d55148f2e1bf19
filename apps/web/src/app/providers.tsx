import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useToasterWanted } from '@/lib/toast';
import { createQueryClient } from './query-client';

// sonner stays out of the first download: its Toaster mounts when a toast is first wanted (lib/toast.ts).
const Toaster = lazy(() => import('@/components/ui/sonner').then((module) => ({ default: module.Toaster })));

function DeferredToaster() {
  const wanted = useToasterWanted();
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
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
