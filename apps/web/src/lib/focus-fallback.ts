/**
 * Where focus goes when the control that had it is gone or disabled: a removed or disabled element drops
 * focus to <body>, and the next Tab starts again at "Skip to content". `notePlace` records where a control
 * sits (its row, its neighbours, the dialog around it) while it is still there; `focusNear` later focuses
 * the first of these that can take focus, in this order:
 *
 * 1. the control itself;
 * 2. in a table row or list item: the row now at its position (the next one once its own is gone, the one
 *    before at the end), the control in the same cell first;
 * 3. the table or list of that row, focused as a whole (no row left with a control);
 * 4. the next control after it, as Tab would have gone, then the one before it; then the dialog it sat in
 *    while that is open;
 * 5. the same again for the control that opened that dialog (`parent`);
 * 6. the screen's heading, then the main region.
 */

const FOCUSABLE =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
const DIALOG = '[role="dialog"],[role="alertdialog"]';
const ROW = 'tr, li, [role="row"]';
/** Neighbours kept on each side: enough to step over a few disabled ones. */
const NEIGHBOURS = 6;

export interface FocusPlace {
  element: HTMLElement;
  row: HTMLElement | null;
  /** The table or list of `row`, and the row's and the cell's positions in it. */
  list: HTMLElement | null;
  rowIndex: number;
  cellIndex: number;
  after: HTMLElement[];
  before: HTMLElement[];
  dialog: HTMLElement | null;
  /** Where the control that opened `dialog` was. */
  parent: FocusPlace | null;
}

export function canTakeFocus(element: Element | null | undefined): element is HTMLElement {
  return (
    element instanceof HTMLElement &&
    element.isConnected &&
    !element.matches(':disabled') &&
    !element.closest('[inert]') &&
    element.getClientRects().length > 0
  );
}

function rowsOf(list: HTMLElement): HTMLElement[] {
  if (list instanceof HTMLTableElement)
    return Array.from(list.tBodies).flatMap((body) => Array.from(body.rows));
  return Array.from(list.children).filter((child): child is HTMLElement => child.matches(ROW));
}

function cellOf(element: HTMLElement, row: HTMLElement): number {
  const cell = element.closest('td, th, [role="cell"], [role="gridcell"]');
  return cell && cell.parentElement === row ? Array.from(row.children).indexOf(cell) : -1;
}

function focusables(scope: ParentNode): HTMLElement[] {
  return Array.from(scope.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(canTakeFocus);
}

/** Records where `element` sits; `parent` is the place of whatever opened the dialog it is in. */
export function notePlace(element: HTMLElement, parent: FocusPlace | null = null): FocusPlace {
  const row = element.closest<HTMLElement>(ROW);
  const list = row?.closest<HTMLElement>('table, ul, ol, [role="grid"], [role="table"]') ?? null;
  const dialog = element.closest<HTMLElement>(DIALOG);
  const scope = dialog ?? element.closest('main') ?? document.body;
  const all = focusables(scope);
  const at = all.indexOf(element);
  const after = at < 0 ? [] : all.slice(at + 1, at + 1 + NEIGHBOURS);
  const before = at < 0 ? [] : all.slice(Math.max(0, at - NEIGHBOURS), at).reverse();
  return {
    element,
    row,
    list,
    rowIndex: row && list ? rowsOf(list).indexOf(row) : -1,
    cellIndex: row ? cellOf(element, row) : -1,
    after,
    before,
    dialog,
    parent,
  };
}

/** Step 2: a control in the row now at the recorded position, or in the one before it. */
function inRow(place: FocusPlace): HTMLElement | null {
  const { list, rowIndex, cellIndex } = place;
  if (!list?.isConnected || rowIndex < 0) return null;
  const rows = rowsOf(list);
  for (const row of [rows[rowIndex], rows[Math.min(rowIndex, rows.length) - 1]]) {
    if (!row) continue;
    const cell = cellIndex >= 0 ? row.children[cellIndex] : null;
    const found = (cell && focusables(cell)[0]) ?? focusables(row)[0];
    if (found) return found;
  }
  return null;
}

/** A container that is not a control takes focus as a whole: it can, programmatically, with tabindex -1. */
function asTarget(container: HTMLElement | null): HTMLElement | null {
  if (!container?.isConnected || container.getClientRects().length === 0) return null;
  if (!container.hasAttribute('tabindex')) {
    container.tabIndex = -1;
    // No ring (index.css): nothing there can be operated, it only hands the next Tab on.
    container.setAttribute('data-focus-target', '');
  }
  return container;
}

function fallbackFor(place: FocusPlace | null): HTMLElement | null {
  for (let at = place; at; at = at.parent) {
    if (canTakeFocus(at.element)) return at.element;
    const found =
      inRow(at) ??
      asTarget(at.list) ??
      at.after.find(canTakeFocus) ??
      at.before.find(canTakeFocus) ??
      (at.dialog?.isConnected ? at.dialog : null);
    if (found) return found;
  }
  const main = document.querySelector<HTMLElement>('main');
  return main?.querySelector<HTMLElement>('h1[tabindex]') ?? main;
}

/**
 * Focuses the best place for `place` (see the chain above). If what took focus then leaves the document or is
 * disabled while it still has it (a deleted row's menu goes once the list has reloaded), focus moves on
 * again, until the user moves it themselves.
 */
export function focusNear(place: FocusPlace | null): void {
  const target = fallbackFor(place);
  if (!target) return;
  target.focus();
  if (document.activeElement === target) followFocus(target, place);
}

let stopFollowing: (() => void) | null = null;

function followFocus(target: HTMLElement, place: FocusPlace | null): void {
  stopFollowing?.();
  // A Radix dialog whose focused control leaves focuses the dialog itself (its focus trap), not <body>.
  const dialog = target.closest<HTMLElement>(DIALOG);
  const held = (element: EventTarget | null) =>
    element === target || element === document.body || element === null || element === dialog;
  const observer = new MutationObserver(() => {
    const lost = !target.isConnected || target.matches(':disabled');
    if (!held(document.activeElement)) return stop();
    if (!lost) return;
    stop();
    focusNear(place);
  });
  const stop = () => {
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn, true);
    document.removeEventListener('pointerdown', stop, true);
    if (stopFollowing === stop) stopFollowing = null;
  };
  // Focus moved by the user (or by the page, e.g. a new screen's heading): theirs to keep.
  const onFocusIn = (event: FocusEvent) => {
    if (!held(event.target)) stop();
  };
  observer.observe(document.body, { subtree: true, childList: true, attributeFilter: ['disabled'] });
  document.addEventListener('focusin', onFocusIn, true);
  document.addEventListener('pointerdown', stop, true);
  stopFollowing = stop;
}

/**
 * For a control that may vanish or be disabled by its own press (Reset, Retry): keeps focus near it, or near
 * `place` (a toast reached by Tab hands focus back to where it came from).
 */
export function keepFocusNear(element: HTMLElement, place: FocusPlace = notePlace(element)): void {
  if (document.activeElement !== element) return;
  followFocus(element, place);
}
