const TAB = 9;
const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;

/**
 * Reads a receipt's lines text (`receipts.lines_text`, readBacktestBatch) field by field, in place:
 * splitting it made a string of every field, numbers included, which cost more than the receipt
 * computation itself. Numbers are read digit by digit into safe integers, so a decimal
 * column's text becomes its cents or thousandths exactly, with no float in between.
 */
export class FieldReader {
  private at = 0;

  constructor(private readonly body: string) {}

  get done(): boolean {
    return this.at >= this.body.length;
  }

  /** Past the next field, unread. */
  skip(): void {
    const end = this.body.indexOf('\t', this.at);
    this.at = end < 0 ? this.body.length : end + 1;
  }

  /** The next field as it is written. */
  raw(): string {
    const start = this.at;
    let end = this.body.indexOf('\t', start);
    if (end < 0) end = this.body.length;
    this.at = end + 1;
    return this.body.slice(start, end);
  }

  /** The next field, a JSON string (empty for null), as its text. */
  text(): string | null {
    const body = this.body;
    const start = this.at;
    if (start >= body.length || body.charCodeAt(start) === TAB) {
      this.at = start + 1;
      return null;
    }
    if (body.charCodeAt(start) !== QUOTE) throw new Error(`Expected a JSON string at ${start}`);
    let escaped = false;
    let i = start + 1;
    for (;;) {
      const c = body.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        i++;
      }
      if (Number.isNaN(c)) throw new Error(`Unterminated JSON string at ${start}`);
      i++;
    }
    this.at = i + 2; // the closing quote and the tab
    return escaped ? (JSON.parse(body.slice(start, i + 1)) as string) : body.slice(start + 1, i);
  }

  /**
   * The next field, an integer or a decimal, × 10^scale, exactly (digits past the scale round half away
   * from zero, as PostgreSQL's round). The value must stay a safe integer.
   */
  scaled(scale = 0): number {
    const body = this.body;
    let i = this.at;
    const negative = body.charCodeAt(i) === MINUS;
    if (negative) i++;
    let value = 0;
    let decimals = -1; // −1: before the point
    let roundUp = false;
    for (;;) {
      const c = body.charCodeAt(i++);
      if (c === TAB || Number.isNaN(c)) break;
      if (c === DOT) {
        decimals = 0;
        continue;
      }
      const digit = c - ZERO;
      if (digit < 0 || digit > 9) throw new Error(`Not a number at ${this.at}`);
      if (decimals >= scale) {
        if (decimals === scale) roundUp = digit >= 5;
        decimals++;
        continue;
      }
      value = value * 10 + digit;
      if (decimals >= 0) decimals++;
    }
    this.at = i;
    for (let d = Math.max(decimals, 0); d < scale; d++) value *= 10;
    if (roundUp) value++;
    return negative ? -value : value;
  }
}
