import { type ListQuerySchema, readTableUrl, type TableState } from './table-url';

/** An address as URLSearchParams writes it (`,` as `%2C`), so a typed link and a written one compare equal. */
function normalAddress(search: string): string {
  return new URLSearchParams(search).toString();
}

/**
 * A server table's state, held outside React so that a change composes with the one before it even when
 * both land before the next render.
 *
 * With `inUrl` the browser's address is the one to agree with, not the router's: BrowserRouter writes
 * history at once but renders the new location in a transition, which can still be pending when the user
 * presses Back. The router then goes from the old address to the same old address and shows no change,
 * while the table was on the page it had written: reading the router, the table stayed on page 2 after
 * Back to page 1. The table remembers the address it last wrote or read, and whenever the browser's
 * address differs (Back, Forward, a link to the same list), it reads that address first.
 */
export interface TableStore<F> {
  /** The state, made to agree with the browser's address first; the same object until either changes. */
  read: () => TableState<F>;
  /** The browser's address while it is still this table's page; null without `inUrl` or once it left. */
  address: () => string | null;
  /** A change of the table's own, after it wrote the address if it did: that address is not one to read back. */
  commit: (next: TableState<F>) => void;
  subscribe: (listener: () => void) => () => void;
  /** The list's pathname, as the router showed it when the table mounted. */
  path: string;
}

export function createTableStore<F extends object>(options: {
  inUrl: ListQuerySchema | undefined;
  defaults: TableState<F>;
  /** The list's pathname: once the browser shows another, the table neither reads nor writes the address. */
  path: string;
  /** The router's search at mount (the location this table renders for). */
  initialSearch: string;
}): TableStore<F> {
  const { inUrl, defaults, path } = options;
  const listeners = new Set<() => void>();
  const address = () =>
    inUrl && window.location.pathname === path ? normalAddress(window.location.search) : null;
  let seen = normalAddress(options.initialSearch);
  let state = inUrl ? readTableUrl(new URLSearchParams(seen), inUrl, defaults) : defaults;
  const notify = () => {
    for (const listener of listeners) listener();
  };

  return {
    read() {
      const now = address();
      if (inUrl && now !== null && now !== seen) {
        seen = now;
        state = readTableUrl(new URLSearchParams(now), inUrl, defaults, state.filters);
      }
      return state;
    },
    address,
    commit(next) {
      // What the browser shows now: the address just written, or the one before if none was needed.
      seen = address() ?? seen;
      state = next;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      // Back and Forward: read the address now, not when the router's transition gets to it.
      window.addEventListener('popstate', listener);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('popstate', listener);
      };
    },
    path,
  };
}
