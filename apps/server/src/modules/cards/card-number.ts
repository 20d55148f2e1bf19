import { randomInt } from 'node:crypto';

/** The Luhn check digit for a string of digits (the digit to append). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Doubling starts at the rightmost payload digit, the one next to the check digit.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isLuhnValid(number: string): boolean {
  return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.at(-1));
}

/**
 * A 16-digit card number: 15 digits from the CSPRNG (no leading zero, so the number survives
 * spreadsheets) and a Luhn check digit. Random, never sequential: a number says nothing about the next.
 */
export function generateCardNumber(): string {
  let payload = String(randomInt(1, 10));
  for (let i = 0; i < 14; i++) payload += String(randomInt(0, 10));
  return payload + String(luhnCheckDigit(payload));
}
