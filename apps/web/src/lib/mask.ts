/** Spec section 2: a card number is shown as four stars plus its last 4 digits ("****1234"). */
export function maskCardNumber(number: string | null | undefined): string | null {
  const digits = number?.trim();
  if (!digits) return null;
  return `****${digits.slice(-4)}`;
}
