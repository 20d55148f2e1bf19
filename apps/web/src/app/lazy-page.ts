import { type ComponentType, createElement, lazy } from 'react';
import { lazyModule } from '@/lib/lazy-module';

export interface LazyPage {
  Component: ComponentType;
  /** Starts the download now; React.lazy reuses the same promise when the route renders. */
  preload: () => Promise<unknown>;
}

/**
 * A route's screen as its own chunk. `preload` lets the router start the chunk of the page being opened at
 * start-up, in parallel with the shell, instead of after it (one round trip less before the first paint).
 *
 * Once the chunk has arrived the screen renders directly, not through React.lazy (see lib/lazy-module.ts: a lazy
 * component suspends on its first render even when its chunk is in, and React 19 then holds the screen back
 * behind the fallback for 300 ms). Before that, React.lazy: navigations run in a transition, which keeps the
 * previous screen up while the next one's chunk downloads.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  const page = lazyModule(() => load().then(pick));
  const Lazy = lazy(() => page.preload().then((component) => ({ default: component })));
  const Component = () => createElement(page.current() ?? Lazy);
  return { Component, preload: page.preload };
}
