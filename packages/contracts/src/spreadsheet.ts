/**
 * A text cell a spreadsheet would run as a formula (OWASP "CSV injection"); the full-width forms too, which
 * some spreadsheets fold to the ASCII ones.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * Whether a text cell is written to a CSV with a `'` before it: one a spreadsheet would run as a formula, and
 * one that is `'`s before such a start, so that the imports, which read one `'` off either, give back every
 * text as it was: `=1+1` is written `'=1+1`, and `'=1+1` is written `''=1+1`. One rule for the server's
 * exports, its imports and the console's "Export selected".
 */
export function needsDefusing(text: string): boolean {
  return FORMULA_START.test(text.replace(/^'+/, ''));
}
