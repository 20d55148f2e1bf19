import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountNumber,
  amountText,
  CentsSum,
  centsNumber,
  centsText,
  divRound,
  maxBig,
  milliNumber,
  milliText,
  minBig,
  mulDivRound,
  parseCents,
  parseMilli,
  toCents,
  toMilli,
} from './money';

describe('money', () => {
  it('reads wire numbers with up to 2 (money) or 3 (quantity) decimals exactly', () => {
    expect(toCents(0.1 + 0.2)).toBe(30n);
    expect(toCents(19.99)).toBe(1999n);
    expect(toCents(-4.35)).toBe(-435n);
    expect(toMilli(1.005)).toBe(1005n);
    expect(toMilli(2)).toBe(2000n);
  });

  it('parses numeric column text, padding and rounding to the scale like round(numeric)', () => {
    expect(parseCents('7')).toBe(700n);
    expect(parseCents('12.3')).toBe(1230n);
    expect(parseCents('-0.50')).toBe(-50n);
    expect(parseCents('.5')).toBe(50n);
    expect(parseCents('1.005')).toBe(101n);
    expect(parseCents('1.0049')).toBe(100n);
    expect(parseCents('-1.005')).toBe(-101n);
    expect(parseMilli('0.1234')).toBe(123n);
    expect(parseCents('123456789012345678.91')).toBe(12345678901234567891n);
  });

  it('refuses text that is not a decimal instead of guessing', () => {
    for (const text of ['', 'abc', '1e5', '1.2.3', '--1', 'NaN']) {
      expect(() => parseCents(text)).toThrow(RangeError);
    }
  });

  it('formats cents and thousandths as SQL literals and wire numbers', () => {
    expect(centsText(0n)).toBe('0.00');
    expect(centsText(5n)).toBe('0.05');
    expect(centsText(-5n)).toBe('-0.05');
    expect(centsText(123456n)).toBe('1234.56');
    expect(milliText(1n)).toBe('0.001');
    expect(centsNumber(1999n)).toBe(19.99);
    expect(milliNumber(-2500n)).toBe(-2.5);
  });

  it('turns wire amounts into SQL text and numeric text (or an empty sum) into wire amounts', () => {
    expect(amountText(0.1 + 0.2)).toBe('0.30');
    expect(amountText(12)).toBe('12.00');
    expect(amountNumber('10.10')).toBe(10.1);
    expect(amountNumber(null)).toBe(0);
    expect(amountNumber(undefined)).toBe(0);
    expect(amountNumber(2.675)).toBe(2.68);
  });

  it('round-trips every cent value through text and wire number', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 50n), max: 2n ** 50n }), (cents) => {
        expect(parseCents(centsText(cents))).toBe(cents);
        expect(toCents(centsNumber(cents))).toBe(cents);
      }),
    );
  });

  it('divides rounding half away from zero, in every sign combination', () => {
    expect(divRound(5n, 10n)).toBe(1n);
    expect(divRound(4n, 10n)).toBe(0n);
    expect(divRound(-5n, 10n)).toBe(-1n);
    expect(divRound(5n, -10n)).toBe(-1n);
    expect(divRound(-15n, -10n)).toBe(2n);
    expect(divRound(0n, 7n)).toBe(0n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (n, d) => {
          const q = divRound(n, d);
          // |n − q·d| ≤ d/2, and exactly half rounds away from zero.
          const rest = n - q * d;
          expect(2n * (rest < 0n ? -rest : rest) <= d).toBe(true);
          if (2n * (rest < 0n ? -rest : rest) === d) expect(q < 0n ? -q : q).toBeGreaterThan(0n);
          expect(divRound(-n, d)).toBe(-q);
        },
      ),
    );
  });

  it('mulDivRound in plain numbers equals divRound in BigInt, below and above 2^53 products', () => {
    expect(mulDivRound(1005, 5_00, 10_000)).toBe(50); // 10.05 × 5 % = 0.5025 → 0.50
    expect(mulDivRound(50, 5_00, 10_000)).toBe(3); // 0.025 → 0.03
    expect(mulDivRound(333, 10_010, 1000)).toBe(3333); // 0.333 × 100.10 = 33.3333
    // 10^12 cents (the largest line total a receipt allows) at 1000 %: the product passes 2^53.
    expect(mulDivRound(10 ** 12, 100_000, 10_000)).toBe(10 ** 13);
    expect(mulDivRound(999_999_999_999, 99_999, 10_000)).toBe(9_999_899_999_990);
    expect(mulDivRound(-50, 5_00, 10_000)).toBe(-3); // half away from zero on both sides, as divRound
    expect(() => mulDivRound(10 ** 15, 10 ** 6, 1)).toThrow(RangeError);
    const exact = (a: number, b: number, d: number) => Number(divRound(BigInt(a) * BigInt(b), BigInt(d)));
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 10 ** 12 })),
        fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 10 ** 9 })),
        fc.constantFrom(1000, 10_000),
        (a, b, d) => {
          fc.pre((BigInt(a) * BigInt(b)) / BigInt(d) < BigInt(Number.MAX_SAFE_INTEGER));
          expect(mulDivRound(a, b, d)).toBe(exact(a, b, d));
        },
      ),
      { numRuns: 2000 },
    );
    // Products just either side of 2^53, where a float product would start to round.
    for (const a of [94_906_265, 94_906_266, 94_906_267, 2 ** 26 + 1]) {
      for (const b of [94_906_265, 94_906_266, 94_906_267, 2 ** 27 - 1]) {
        for (const d of [1000, 10_000]) expect(mulDivRound(a, b, d)).toBe(exact(a, b, d));
      }
    }
  });

  it('sums cents exactly past 2^53, in a number while it can', () => {
    const sum = new CentsSum();
    expect(sum.value).toBe(0n);
    sum.add(Number.MAX_SAFE_INTEGER - 1);
    sum.add(3);
    sum.add(Number.MAX_SAFE_INTEGER);
    sum.add(0);
    expect(sum.value).toBe(2n * BigInt(Number.MAX_SAFE_INTEGER) + 2n);
    const many = new CentsSum();
    for (let i = 0; i < 1000; i++) many.add(i);
    expect(many.value).toBe(499_500n);
  });

  it('picks the smaller and the larger amount', () => {
    expect(minBig(3n, -1n)).toBe(-1n);
    expect(maxBig(3n, -1n)).toBe(3n);
  });
});
