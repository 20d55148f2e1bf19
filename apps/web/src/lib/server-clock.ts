/**
 * The server's clock, as the console reads it: the browser's own corrected by how far it is off the server's.
 * The console's "last 24 hours" and "today" are the server's (its data are stamped by it): a laptop whose clock
 * is 3 h slow asked for a window that ended 2 h ago and showed no operations of the last two hours.
 *
 * The offset comes from the `Date` header of the API's answers (api-client.ts), whole seconds only, so an
 * offset under `IGNORED_OFFSET_MS` is taken as none: a clock that is right is not moved about by the header's
 * rounding and the time the answer took.
 */
const IGNORED_OFFSET_MS = 2000;

let offset = 0;

/** Notes the server's time from an answer's `Date` header, received at `receivedAt` by this clock. */
export function noteServerDate(header: string | null, receivedAt = Date.now()): void {
  if (!header) return;
  const server = Date.parse(header);
  if (!Number.isFinite(server)) return;
  // The header is the second the answer was sent, rounded down: its middle is nearer.
  const measured = server + 500 - receivedAt;
  offset = Math.abs(measured) < IGNORED_OFFSET_MS ? 0 : measured;
}

/** Now by the server's clock (ms since the epoch), as far as this tab has heard from it. */
export function serverNow(): number {
  return Date.now() + offset;
}
