import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { planReturn, returnDeduction } from './return-plan';
import type { LockedLine } from './returns.repository';

const locked = (
  line_no: number,
  sku: string,
  quantity: string,
  bonus_points: string,
  returned_quantity = '0',
  returned_points = '0',
): LockedLine => ({ line_no, sku, quantity, bonus_points, returned_quantity, returned_points });

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('return plan', () => {
  it('without items returns everything still on the receipt', () => {
    const plan = planReturn([locked(1, 'A', '2', '1.00'), locked(2, 'B', '1', '0.35', '0.5', '0.18')]);
    expect(plan.lines).toEqual([
      { lineNo: 1, returnedQuantity: '2.000', returnedPoints: '1.00' },
      { lineNo: 2, returnedQuantity: '1.000', returnedPoints: '0.35' },
    ]);
    expect(plan.pointsCents).toBe(117n); // 1.00 + (0.35 − 0.18)
  });

  it('a partial return takes round2(bonus × returned / quantity), and the rest adds up to the bonus', () => {
    const lines = [locked(1, 'A', '3', '1.00')];
    const first = planReturn(lines, [{ sku: 'A', quantity: 1 }]);
    expect(first.lines).toEqual([{ lineNo: 1, returnedQuantity: '1.000', returnedPoints: '0.33' }]);
    const second = planReturn([locked(1, 'A', '3', '1.00', '1', '0.33')], [{ sku: 'A', quantity: 1 }]);
    expect(second.lines[0]!.returnedPoints).toBe('0.67');
    expect(second.pointsCents).toBe(34n);
    const last = planReturn([locked(1, 'A', '3', '1.00', '2', '0.67')], [{ sku: 'A', quantity: 1 }]);
    expect(last.pointsCents).toBe(33n);
    expect(first.pointsCents + second.pointsCents + last.pointsCents).toBe(100n);
  });

  it('spreads a SKU that stands on several lines over them in line order, adding repeated items', () => {
    const plan = planReturn(
      [locked(1, 'A', '1', '0.10'), locked(2, 'B', '1', '0.50'), locked(3, 'A', '2', '0.40')],
      [
        { sku: 'A', quantity: 1 },
        { sku: 'A', quantity: 0.5 },
      ],
    );
    expect(plan.lines).toEqual([
      { lineNo: 1, returnedQuantity: '1.000', returnedPoints: '0.10' },
      { lineNo: 3, returnedQuantity: '0.500', returnedPoints: '0.10' },
    ]);
    expect(plan.pointsCents).toBe(20n);
  });

  it('refuses an unknown SKU, more than is left, and a receipt already returned in full', () => {
    const lines = [locked(1, 'A', '2', '1.00', '1.5', '0.75')];
    expect(refusal(() => planReturn(lines, [{ sku: 'Z', quantity: 1 }]))).toBe(
      "RETURN_NOT_ALLOWED: SKU 'Z' is not on the receipt",
    );
    expect(refusal(() => planReturn(lines, [{ sku: 'A', quantity: 1 }]))).toBe(
      "RETURN_NOT_ALLOWED: Only 0.5 of SKU 'A' can still be returned",
    );
    expect(refusal(() => planReturn([locked(1, 'A', '2', '1.00', '2', '1.00')]))).toBe(
      'RETURN_NOT_ALLOWED: Nothing left to return for this operation',
    );
  });

  it('a line that earned nothing returns quantity and no points', () => {
    const plan = planReturn([locked(1, 'X', '4', '0')], [{ sku: 'X', quantity: 4 }]);
    expect(plan.lines).toEqual([{ lineNo: 1, returnedQuantity: '4.000', returnedPoints: '0.00' }]);
    expect(plan.pointsCents).toBe(0n);
  });
});

describe('return deduction', () => {
  it('takes what is available (balance − held), never below it; the rest is the shortfall', () => {
    expect(returnDeduction(500n, { balance: '10.00', held_balance: '2.00' })).toEqual({
      taken: 500n,
      shortfall: 0n,
    });
    expect(returnDeduction(500n, { balance: '10.00', held_balance: '7.50' })).toEqual({
      taken: 250n,
      shortfall: 250n,
    });
    expect(returnDeduction(500n, { balance: '3.00', held_balance: '3.00' })).toEqual({
      taken: 0n,
      shortfall: 500n,
    });
    expect(returnDeduction(0n, { balance: '1.00', held_balance: '0.00' })).toEqual({
      taken: 0n,
      shortfall: 0n,
    });
  });
});
