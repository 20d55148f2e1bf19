import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import { useToasterWanted } from '@/lib/toast';
import { createQueryClient } from './query-client';

// sonner stays out of the first download: its Toaster mounts when a toast is first wanted (lib/toast.ts).
const toasterModule = lazyModule(() => import('@/components/ui/sonner'));

function DeferredToaster() {
  const wanted = useToasterWanted();
  const Toaster = useLazyModule(toasterModule, wanted)?.Toaster;
  return Toaster ? <Toaster /> : null;
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
