import { type ComponentType, createElement, lazy } from 'react';

export interface LazyPage {
  Component: ComponentType;
  /** Starts the download now; React.lazy reuses the same promise when the route renders. */
  preload: () => Promise<unknown>;
}

/**
 * A route's screen as its own chunk. `preload` lets the router start the chunk of the page being opened at
 * start-up, in parallel with the shell, instead of after it (one round trip less before the first paint).
 *
 * Once the chunk has arrived the screen renders directly, not through React.lazy: a lazy component suspends on
 * its first render even when its promise has already resolved, and React 19 then shows the boundary's fallback
 * and holds the real screen back for its reveal throttle (300 ms, measured as the gap between the last chunk
 * and the screen's first data request on a fresh page load).
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let pending: Promise<{ default: ComponentType }> | undefined;
  let loaded: ComponentType | undefined;
  const preload = () => {
    pending ??= load().then((module) => {
      loaded = pick(module);
      return { default: loaded };
    });
    return pending;
  };
  const Lazy = lazy(preload);
  const Component = () => createElement(loaded ?? Lazy);
  return { Component, preload };
}
