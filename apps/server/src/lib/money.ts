/**
 * The one money type: amounts and points as integer cents, quantities as integer thousandths, all in
 * BigInt, so no float ever decides a point (ARCHITECTURE.md "Ledger rules"). Numbers exist only at the
 * edges: what the wire brings (at most 2 or 3 decimals, checked by the contracts) and what it is sent.
 * PostgreSQL's numeric columns arrive as text and are parsed exactly.
 */

import { MAX_BALANCE } from '@loyalty/contracts';

/** Money or points in cents. */
export type Cents = bigint;
/** A quantity in thousandths (goods sold by weight). */
export type Milli = bigint;

/**
 * A wire number with at most 2 decimals → cents as a plain number: exact, since the float's error (below
 * 10^13 cents) stays far under the half cent Math.round decides on.
 */
export const centsOf = (value: number) => Math.round(value * 100);
/** A wire quantity with at most 3 decimals → thousandths as a plain number. */
export const milliOf = (value: number) => Math.round(value * 1000);

/** A wire number with at most 2 decimals (validated upstream) → cents. */
export function toCents(value: number): Cents {
  return BigInt(centsOf(value));
}

/** A wire quantity with at most 3 decimals → thousandths. */
export function toMilli(value: number): Milli {
  return BigInt(milliOf(value));
}

/**
 * A numeric column ("12.3", "-0.50", "7", ".5") → units of 10^-scale. Digits beyond the scale round half
 * away from zero, as PostgreSQL's `round(numeric, scale)` does.
 */
export function parseScaled(text: string, scale: number): bigint {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const unsigned = negative || trimmed.startsWith('+') ? trimmed.slice(1) : trimmed;
  if (!/^(\d+\.?\d*|\.\d+)$/.test(unsigned)) throw new RangeError(`Not a decimal: '${text}'`);
  const [whole = '', fraction = ''] = unsigned.split('.');
  const kept = BigInt((whole || '0') + fraction.padEnd(scale, '0').slice(0, scale));
  const roundsUp = (fraction[scale] ?? '0') >= '5';
  const digits = roundsUp ? kept + 1n : kept;
  return negative ? -digits : digits;
}

export const parseCents = (text: string): Cents => parseScaled(text, 2);
export const parseMilli = (text: string): Milli => parseScaled(text, 3);

function formatScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Cents → numeric literal for SQL ("12.34"). */
export const centsText = (cents: Cents) => formatScaled(cents, 2);
export const milliText = (milli: Milli) => formatScaled(milli, 3);

/** Cents → wire number. Exact: every 2-decimal value below 2^53 cents has a shortest round-trip form. */
export const centsNumber = (cents: Cents) => Number(centsText(cents));
export const milliNumber = (milli: Milli) => Number(milliText(milli));

/** A wire amount (at most 2 decimals) → numeric literal for SQL, without passing through a float's digits. */
export const amountText = (value: number) => centsText(toCents(value));

/**
 * A numeric column (or a sum of them) → wire number with 2 decimals; null (an empty sum) is 0. Some drivers
 * hand numbers for aggregates, so a number is accepted and rounded to the cent the same way.
 */
export function amountNumber(value: string | number | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return centsNumber(typeof value === 'number' ? toCents(value) : parseCents(value));
}

/** numerator / denominator rounded half away from zero (the usual commercial rounding). */
export function divRound(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (d * 2n);
  return negative ? -q : q;
}

/**
 * round(a × b / d), half away from zero, for integers and d > 0, as a plain number: the receipt
 * computation's hot loop (a backtest runs it for millions of lines, where BigInt allocates on every step).
 * Exact: while a × b is a safe integer the float product is that integer, `%` on floats is exact and
 * (a × b − r) / d divides exactly; above it the product is taken in BigInt. The result must be a safe integer
 * (it always is for what the contracts accept: a receipt's amount is at most 10^10, so 10^12 cents).
 */
export function mulDivRound(a: number, b: number, d: number): number {
  const product = a * b;
  if (product < 0) return -mulDivRound(Math.abs(a), Math.abs(b), d);
  if (product <= Number.MAX_SAFE_INTEGER) {
    const r = product % d;
    const q = (product - r) / d;
    return r * 2 >= d ? q + 1 : q;
  }
  const exact = divRound(BigInt(a) * BigInt(b), BigInt(d));
  if (exact > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${a} × ${b} / ${d} is too large`);
  return Number(exact);
}

/**
 * A running sum of non-negative cents kept in a plain number while it is a safe integer, spilling into a BigInt past it:
 * exact however many lines are added, without a BigInt addition per line.
 */
export class CentsSum {
  private small = 0;
  private big = 0n;

  add(cents: number): void {
    const sum = this.small + cents;
    if (sum <= Number.MAX_SAFE_INTEGER) {
      this.small = sum;
    } else {
      this.big += BigInt(this.small);
      this.small = cents;
    }
  }

  get value(): Cents {
    return this.big + BigInt(this.small);
  }
}

export const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
export const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/** The largest balance accounts.balance (numeric(14, 2)) can store, in cents. */
export const MAX_BALANCE_CENTS: Cents = toCents(MAX_BALANCE);
