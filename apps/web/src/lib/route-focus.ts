/**
 * Where keyboard focus goes when the route changes (WCAG 2.4.3). A screen the user navigated to inside
 * the console — a link, a button, sign-in, Back — gets its heading focused, so a screen reader announces
 * the new page ("Accounts, heading level 1") and the next Tab starts in its content, not back in the
 * sidebar. A page the browser opened itself (first load of a deep link, and a redirect during that load)
 * keeps the browser's own behaviour: focus at the top of the document, the title announced, the skip
 * link as the first Tab.
 */
interface RouterLike {
  state: { location: { pathname: string } };
  subscribe(listener: (state: { location: { pathname: string } }) => void): () => void;
}

let interacted = false;
let pending: string | null = null;

function markInteracted() {
  interacted = true;
}

/** Watches the router: a path change after the user has touched the page asks that page's heading for focus. */
export function trackRouteFocus(router: RouterLike): () => void {
  window.addEventListener('pointerdown', markInteracted, { capture: true, once: true });
  window.addEventListener('keydown', markInteracted, { capture: true, once: true });
  let last = router.state.location.pathname;
  return router.subscribe((state) => {
    const { pathname } = state.location;
    if (pathname === last) return; // a filter or page change in the query string stays where it is
    last = pathname;
    pending = interacted ? pathname : null;
  });
}

/** True once per navigation, for the screen at `pathname`: it should focus its heading now. */
export function takeHeadingFocus(pathname: string): boolean {
  if (pending !== pathname) return false;
  pending = null;
  return true;
}

/**
 * A screen that swaps its header (a loading "Client" for the client's own) hands the focus on: the
 * heading leaving while it has focus asks the next heading of the same screen to take it.
 */
export function passHeadingFocus(pathname: string): void {
  if (window.location.pathname === pathname) pending = pathname;
}
