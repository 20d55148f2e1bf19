import { describe, expect, it } from 'vitest';
import { generateCardNumber, isLuhnValid, luhnCheckDigit } from './card-number';

describe('card numbers', () => {
  it('computes the Luhn check digit of known numbers', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
    expect(isLuhnValid('abc')).toBe(false);
  });

  it('draws 16-digit, Luhn-valid, distinct and non-sequential numbers', () => {
    const numbers = Array.from({ length: 2000 }, generateCardNumber);
    for (const n of numbers) {
      expect(n).toMatch(/^[1-9]\d{15}$/);
      expect(isLuhnValid(n)).toBe(true);
    }
    expect(new Set(numbers).size).toBe(numbers.length);
    const payloads = numbers.map((n) => BigInt(n.slice(0, 15)));
    const steps = payloads.slice(1).map((p, i) => p - payloads[i]!);
    // Sequential issuing would show small or constant steps between consecutive numbers.
    expect(steps.filter((d) => d > -1000n && d < 1000n)).toHaveLength(0);
    expect(new Set(steps).size).toBe(steps.length);
  });
});
