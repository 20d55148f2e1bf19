import type { ReceiptDetail } from '@loyalty/contracts';

/** Cents, so sums of many 2-decimal amounts do not pick up binary fractions (0.1 + 0.2). */
function sum2(values: number[]): number {
  return values.reduce((total, value) => total + Math.round(value * 100), 0) / 100;
}

export interface ReceiptTotals {
  /** Before discounts: Σ quantity × price (a line's total is after its discount, and never below 0). */
  subtotal: number;
  discount: number;
  total: number;
  bonusPoints: number;
}

export function receiptTotals({ receipt, items }: ReceiptDetail): ReceiptTotals {
  return {
    subtotal:
      items.length > 0
        ? sum2(items.map((item) => item.quantity * item.price))
        : sum2([receipt.totalAmount, receipt.totalDiscount]),
    discount: receipt.totalDiscount,
    total: receipt.totalAmount,
    bonusPoints: sum2(items.map((item) => item.bonusPoints)),
  };
}

/**
 * Lines that earned nothing though their amount would have earned at the receipt's rate: the SKU was
 * excluded from accrual. The rate is read off the lines that did earn (points ÷ line total), so a 0 %
 * ruleset or a line too small to reach 0.01 points is not mistaken for an exclusion. With no earning
 * line the rate is unknown and no line is marked.
 */
export function excludedLineIds(items: ReceiptDetail['items']): Set<string> {
  const rates = items
    .filter((i) => i.bonusPoints > 0 && i.lineTotal > 0)
    .map((i) => i.bonusPoints / i.lineTotal);
  if (rates.length === 0) return new Set();
  const rate = Math.min(...rates);
  return new Set(
    items.filter((i) => i.bonusPoints === 0 && i.lineTotal * rate >= 0.01).map((item) => item.id),
  );
}

/**
 * Spec section 2, the POS of an operation: name and address; else name; else address; else the first 8
 * characters of the id plus an ellipsis; else a dash.
 */
export function posLabel(
  posId: string | null | undefined,
  name: string | null,
  address: string | null,
): string {
  const n = name?.trim();
  const a = address?.trim();
  if (n && a) return `${n}, ${a}`;
  if (n || a) return (n || a) as string;
  if (posId) return `${posId.slice(0, 8)}…`;
  return '—';
}
