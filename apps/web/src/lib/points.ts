import { formatNumber, toNumber } from './format';

/** "1,234.5 pts": en-US grouping, up to 2 decimals (spec section 9). */
export function formatPoints(value: number | string | null | undefined): string {
  return `${formatNumber(value)} pts`;
}

/** "+12.5" or "-3": the sign always shown, so credits and debits read apart at a glance. */
export function formatSignedPoints(value: number | string | null | undefined): string {
  const n = toNumber(value);
  return n > 0 ? `+${formatNumber(n)}` : formatNumber(n);
}

/** Green for credits, red for debits (spec: "signed points coloured green or red"). */
export function pointsToneClass(value: number | string | null | undefined): string {
  const n = toNumber(value);
  if (n > 0) return 'text-emerald-700 dark:text-emerald-400';
  if (n < 0) return 'text-red-600 dark:text-red-400';
  return 'text-muted-foreground';
}

/**
 * Whether an operation's points moved a balance. A failed one (a refused hold, a declined redemption) still
 * lists the points it asked for, signed (spec: "Points (signed)"), but nothing moved: it is shown muted, without
 * the green or red of a credit or debit, and says so (NOT_APPLIED_HINT) to pointer and screen-reader users.
 */
export function pointsApplied(status: string): boolean {
  return status !== 'failed';
}

export const NOT_APPLIED_HINT = 'not applied (failed)';
