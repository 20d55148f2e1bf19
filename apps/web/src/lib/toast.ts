import { useSyncExternalStore } from 'react';
import type { toast as sonnerToast } from 'sonner';

type Toast = typeof sonnerToast;

/**
 * Toasts for the modules of the first download (the entry and /login): sonner is ~10 kB compressed that
 * /login needs only when it has something to say. The first call loads it and mounts the Toaster
 * (app/providers.tsx); sonner replays toasts raised before its Toaster subscribed, so none is lost.
 * Screens behind sign-in import `toast` from 'sonner' directly: the signed-in shell mounts the Toaster. A
 * screen that is a first route of its own (/pos-api) uses `notify` too, so sonner is not on its first download.
 */
let sonner: Promise<Toast> | undefined;
let mounted = false;
const listeners = new Set<() => void>();

export function loadToaster(): Promise<Toast> {
  if (!mounted) {
    mounted = true;
    for (const listener of listeners) listener();
  }
  sonner ??= import('sonner').then((module) => module.toast);
  return sonner;
}

function call(show: (toast: Toast) => void) {
  loadToaster().then(show, (error: unknown) => console.error('Could not load notifications', error));
}

export const notify = {
  success: (...args: Parameters<Toast['success']>) => call((toast) => toast.success(...args)),
  error: (...args: Parameters<Toast['error']>) => call((toast) => toast.error(...args)),
};

/** True once something asked for the Toaster. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => mounted,
  );
}
