import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScaled } from '../../lib/money';
import { FieldReader } from './backtest-fields';

describe('backtest batch fields', () => {
  it('reads raw fields, JSON strings (escaped or not, empty for null) and skips', () => {
    const odd = 'TAB\there "quoted" \\ back ✓';
    const body = ['id-1', JSON.stringify(odd), '', JSON.stringify('plain'), 'x', 'last'].join('\t');
    const f = new FieldReader(body);
    expect(f.raw()).toBe('id-1');
    expect(f.text()).toBe(odd);
    expect(f.text()).toBeNull();
    expect(f.text()).toBe('plain');
    f.skip();
    expect(f.done).toBe(false);
    expect(f.raw()).toBe('last');
    expect(f.done).toBe(true);
  });

  it('reads decimal text × 10^scale exactly, padding and rounding like round(numeric)', () => {
    const f = new FieldReader(
      ['1.000', '10.00', '7', '12.3', '1.005', '1.0049', '-0.125', '1763900000123456'].join('\t'),
    );
    expect(f.scaled(3)).toBe(1000);
    expect(f.scaled(2)).toBe(1000);
    expect(f.scaled(2)).toBe(700);
    expect(f.scaled(2)).toBe(1230);
    expect(f.scaled(2)).toBe(101);
    expect(f.scaled(2)).toBe(100);
    expect(f.scaled(2)).toBe(-13);
    expect(f.scaled()).toBe(1_763_900_000_123_456);
    expect(f.done).toBe(true);
    expect(() => new FieldReader('1x').scaled()).toThrow('Not a number');
  });

  it('agrees with parseScaled on decimal text of up to 12 digits', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }), fc.integer({ min: 0, max: 4 }))
      .map(([digits, places]) => {
        const text = digits.toString().padStart(places + 1, '0');
        return places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`;
      });
    fc.assert(
      fc.property(
        fc.array(decimal, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(2, 3),
        (texts, scale) => {
          const f = new FieldReader(texts.join('\t'));
          for (const text of texts) expect(f.scaled(scale)).toBe(Number(parseScaled(text, scale)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
