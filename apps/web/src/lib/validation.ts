/** Spec section 5 "Generic e-mail check". */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}
