import { MAX_BALANCE } from '@loyalty/contracts';

/**
 * Exact decimal arithmetic for receipts and points: money and points as integer cents, quantities as
 * integer thousandths, all in BigInt, so no float ever decides a point.
 */

/** A wire number with at most 2 decimals (validated upstream) → cents. */
export function toCents(value: number): bigint {
  return BigInt(Math.round(value * 100));
}

/** A wire quantity with at most 3 decimals → thousandths. */
export function toMilli(value: number): bigint {
  return BigInt(Math.round(value * 1000));
}

/** A numeric column ("12.3", "-0.50", "7") → units of 10^-scale. */
export function parseScaled(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const digits = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -digits : digits;
}

export const parseCents = (text: string) => parseScaled(text, 2);
export const parseMilli = (text: string) => parseScaled(text, 3);

function formatScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Cents → numeric literal for SQL ("12.34"). */
export const centsText = (cents: bigint) => formatScaled(cents, 2);
export const milliText = (milli: bigint) => formatScaled(milli, 3);

/** Cents → wire number. Exact: every 2-decimal value below 2^53 cents has a shortest round-trip form. */
export const centsNumber = (cents: bigint) => Number(centsText(cents));
export const milliNumber = (milli: bigint) => Number(milliText(milli));

/** numerator / denominator rounded half away from zero (the usual commercial rounding). */
export function divRound(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (d * 2n);
  return negative ? -q : q;
}

export const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/** The largest balance accounts.balance (numeric(14, 2)) can store, in cents. */
export const MAX_BALANCE_CENTS = BigInt(Math.round(MAX_BALANCE * 100));
