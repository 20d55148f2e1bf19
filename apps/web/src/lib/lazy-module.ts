import { useEffect, useReducer, useState } from 'react';

/**
 * A chunk loaded on demand, once, and readable synchronously after it has arrived.
 *
 * Why not `React.lazy` + `<Suspense>`: a lazy component suspends on its first render, and once React has shown a
 * boundary's fallback it holds the real content back until 300 ms after that (React 19's reveal throttle), even
 * when the chunk came in 50 ms later. A screen that renders its own placeholder until `useLazyModule` answers
 * shows the content the moment the chunk is there.
 */
export interface LazyModule<T> {
  /** Starts the download (once); every caller shares the same promise. */
  preload: () => Promise<T>;
  /** The module, once it has arrived. */
  current: () => T | undefined;
}

export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let pending: Promise<T> | undefined;
  let loaded: T | undefined;
  return {
    preload: () => {
      if (!pending) {
        pending = load().then((module) => {
          loaded = module;
          return module;
        });
        // A failed download is not remembered: the next call (a retry, a later render) tries again.
        pending.catch(() => {
          pending = undefined;
        });
      }
      return pending;
    },
    current: () => loaded,
  };
}

/**
 * The module when it has arrived, `undefined` until then; loading starts when `enabled` is (or becomes) true.
 * A chunk that cannot be downloaded is thrown from the render, so the route's error boundary reports it as it
 * would for `React.lazy`.
 */
export function useLazyModule<T>(module: LazyModule<T>, enabled = true): T | undefined {
  // The module itself lives in `module`; a render after its arrival is all this component needs.
  const [, arrived] = useReducer((renders: number) => renders + 1, 0);
  const [failure, setFailure] = useState<{ reason: unknown }>();
  const current = module.current();
  useEffect(() => {
    if (enabled && current === undefined)
      module.preload().then(
        () => arrived(),
        (reason) => setFailure({ reason }),
      );
  }, [module, enabled, current]);
  if (failure) throw failure.reason;
  return current;
}
