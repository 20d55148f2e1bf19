import { type ComponentType, lazy } from 'react';

export interface LazyPage {
  Component: ComponentType;
  /** Starts the download now; React.lazy reuses the same promise when the route renders. */
  preload: () => Promise<unknown>;
}

/**
 * A route's screen as its own chunk. `preload` lets the router start the chunk of the page being opened at
 * start-up, in parallel with the shell, instead of after it (one round trip less before the first paint).
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let pending: Promise<{ default: ComponentType }> | undefined;
  const preload = () => {
    pending ??= load().then((module) => ({ default: pick(module) }));
    return pending;
  };
  return { Component: lazy(preload), preload };
}
