import type { ReceiptDetail } from '@loyalty/contracts';
import { sumAmounts } from '@/lib/money';

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
        ? sumAmounts(items.map((item) => item.quantity * item.price))
        : sumAmounts([receipt.totalAmount, receipt.totalDiscount]),
    discount: receipt.totalDiscount,
    total: receipt.totalAmount,
    bonusPoints: sumAmounts(items.map((item) => item.bonusPoints)),
  };
}

/**
 * How the Bonus Points column names a line's rule: nothing for the base percent (most lines), the rule's
 * name for one of the ruleset's rules, and plain words for what held a line back.
 */
export function ruleLabel(rule: string): { text: string; named: boolean } | null {
  if (rule === 'base') return null;
  if (rule === 'excluded') return { text: 'Excluded SKU', named: false };
  if (rule === 'minSpend') return { text: 'Below minimum spend', named: false };
  if (rule === 'cap') return { text: 'Capped', named: false };
  return { text: rule, named: true };
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
