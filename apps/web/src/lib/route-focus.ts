/**
 * Where keyboard focus goes when the route changes (WCAG 2.4.3). A screen the user navigated to inside
 * the console — a link, a button, sign-in, Back — gets its heading focused, so a screen reader announces
 * the new page ("Accounts, heading level 1") and the next Tab starts in its content, not back in the
 * sidebar. A page the browser opened itself (first load of a deep link, and a redirect during that load)
 * keeps the browser's own behaviour: focus at the top of the document, the title announced, the skip
 * link as the first Tab.
 */
let interacted = false;
let pending: string | null = null;
// The path last seen by `routeChanged`; null until the first screen has rendered.
let last: string | null = null;

function markInteracted() {
  interacted = true;
}

/** Notes the user's first pointer or key press; call before the first render. */
export function trackRouteFocus(): void {
  window.addEventListener('pointerdown', markInteracted, { capture: true, once: true });
  window.addEventListener('keydown', markInteracted, { capture: true, once: true });
}

/**
 * The router's location, from app/router.tsx, before the new screen's effects run: a path change after the
 * user has touched the page asks that page's heading for focus.
 */
export function routeChanged(pathname: string): void {
  if (last === null || pathname === last) {
    // The first screen, or a filter or page change in the query string: focus stays where it is.
    last = pathname;
    return;
  }
  last = pathname;
  pending = interacted ? pathname : null;
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
