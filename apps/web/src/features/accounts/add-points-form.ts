export const INVALID_POINTS_MESSAGE = 'Please enter a valid points amount';

/** The amount as typed, or null when it is not a number. */
export function parsePoints(value: string): number | null {
  if (!value.trim()) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Spec section 5 "Add points": the button is disabled while the amount is empty or at most 0. */
export function canSubmitPoints(value: string): boolean {
  const n = parsePoints(value);
  return n !== null && n > 0;
}

/**
 * The message for an amount the server would refuse: not above 0, or more than 2 decimals (points are
 * kept to the cent). Empty is not an error yet: the button is simply disabled.
 */
export function validatePoints(value: string): string | null {
  if (!value.trim()) return null;
  const n = parsePoints(value);
  if (n === null || n <= 0) return INVALID_POINTS_MESSAGE;
  if (Math.abs(Math.round(n * 100) - n * 100) > 1e-6) return INVALID_POINTS_MESSAGE;
  return null;
}
