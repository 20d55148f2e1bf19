import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divRound } from '../../lib/money';
import { compileRuleset } from './earning-rules';
import {
  computeReceipt,
  type EarningContext,
  lineToWire,
  type ReceiptLineInput,
  receiptTotals,
} from './receipt-math';

/** A rules v1 ruleset: the base percent and exclusions only. */
const v1 = (percent: string, excluded: string[] = []): EarningContext => ({
  ruleset: compileRuleset(percent, null),
  excluded: new Set(excluded),
  purchase: { posId: 'pos', dayOfWeek: 1, minute: 600 },
  earnedTodayCents: 0n,
});

const line = (sku: string, quantity: number, price: number, discount = 0): ReceiptLineInput => ({
  sku,
  category: null,
  quantity,
  price,
  discount,
});

describe('receipt math', () => {
  it('line total = quantity × price − discount to the cent; totals add the lines', () => {
    const totals = receiptTotals([line('A', 2, 9.99, 1.5), line('B', 0.333, 3.01)]);
    expect(totals.lines.map((l) => l.lineTotalCents)).toEqual([1848n, 100n]); // 18.48; 1.00233 → 1.00
    expect(totals.totalAmountCents).toBe(1948n);
    expect(totals.totalDiscountCents).toBe(150n);
    expect(totals.lines.map((l) => l.lineNo)).toEqual([1, 2]);
  });

  it('caps a line at 0 when the discount is a hair above the gross', () => {
    const totals = receiptTotals([line('A', 1, 5, 5.01)]);
    expect(totals.lines[0]!.lineTotalCents).toBe(0n);
    expect(totals.totalAmountCents).toBe(0n);
    expect(totals.totalDiscountCents).toBe(501n);
  });

  it('earns round2(lineTotal × percent / 100) per line, half away from zero, 0 for an excluded SKU', () => {
    const receipt = computeReceipt(
      [line('A', 1, 10.05), line('B', 1, 0.5), line('X', 3, 100)],
      v1('5.00', ['X']),
    );
    // 10.05 × 5% = 0.5025 → 0.50; 0.50 × 5% = 0.025 → 0.03 (half away from zero); X excluded.
    expect(receipt.lines.map((l) => l.bonusCents)).toEqual([50n, 3n, 0n]);
    expect(receipt.lines.map((l) => l.rule)).toEqual(['base', 'base', 'excluded']);
    expect(receipt.pointsCents).toBe(53n);
    expect(receipt.totalAmountCents).toBe(31055n);
  });

  it('takes fractional percentages exactly', () => {
    const receipt = computeReceipt([line('A', 1, 33.33)], v1('12.5'));
    expect(receipt.pointsCents).toBe(417n); // 4.16625 → 4.17
  });

  it('sends lines to the wire as numbers with their decimals', () => {
    const [computed] = computeReceipt([line('A', 1.25, 2.4, 0.1)], v1('10')).lines;
    expect(lineToWire(computed!)).toEqual({
      sku: 'A',
      category: null,
      quantity: 1.25,
      price: 2.4,
      discount: 0.1,
      lineTotal: 2.9,
      bonusPoints: 0.29,
      rule: 'base',
    });
  });

  it("stays exact at the contract's bounds: lines up to 10^10, percents up to 1000 % (BigInt reference)", () => {
    // Σ quantity × price of a receipt is at most 10^10 (MAX_RECEIPT_AMOUNT): thousandths × cents ≤ 10^15.
    const bigLine = fc.integer({ min: 1, max: 1_000_000_000 }).chain((milli) =>
      fc.record({
        milli: fc.constant(milli),
        cents: fc.integer({ min: 0, max: Math.floor(10 ** 15 / milli) }),
      }),
    );
    fc.assert(
      fc.property(bigLine, fc.integer({ min: 0, max: 100_000 }), ({ milli, cents }, basis) => {
        const percent = `${Math.floor(basis / 100)}.${String(basis % 100).padStart(2, '0')}`;
        const receipt = computeReceipt([line('A', milli / 1000, cents / 100)], v1(percent));
        const total = divRound(BigInt(milli) * BigInt(cents), 1000n);
        expect(receipt.lines[0]!.lineTotalCents).toBe(total);
        expect(receipt.pointsCents).toBe(divRound(total * BigInt(basis), 10_000n));
      }),
      { numRuns: 1000 },
    );
  });

  it('each line earns exactly round2(lineTotal × percent / 100) and points are their sum', () => {
    const lines = fc.array(
      fc.record({
        sku: fc.constantFrom('A', 'B', 'C'),
        category: fc.constant(null),
        quantity: fc.integer({ min: 1, max: 100_000 }).map((m) => m / 1000),
        price: fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
        discount: fc.constant(0),
      }),
      { minLength: 1, maxLength: 10 },
    );
    fc.assert(
      fc.property(lines, fc.integer({ min: 0, max: 10_000 }), (items, basis) => {
        const percent = `${Math.floor(basis / 100)}.${String(basis % 100).padStart(2, '0')}`;
        const receipt = computeReceipt(items, v1(percent, ['C']));
        const sum = receipt.lines.reduce((s, l) => s + l.bonusCents, 0n);
        expect(receipt.pointsCents).toBe(sum);
        for (const l of receipt.lines) {
          expect(l.bonusCents).toBe(l.sku === 'C' ? 0n : divRound(l.lineTotalCents * BigInt(basis), 10_000n));
        }
      }),
    );
  });
});
