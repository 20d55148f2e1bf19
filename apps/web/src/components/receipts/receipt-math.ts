import type { ReceiptDetail } from '@loyalty/contracts';
import { sumAmounts } from '@/lib/money';

export interface ReceiptTotals {
  /**
   * Before discounts: Σ of each line's gross as the server rounded it to the cent (its lineTotal + discount).
   * Not Σ quantity × price in floats: 2.5 kg × 1.99 is 4.97499… there, and the subtotal came out a cent
   * below the receipt total it must add up to.
   */
  subtotal: number;
  discount: number;
  total: number;
  bonusPoints: number;
}

export function receiptTotals({ receipt, items }: ReceiptDetail): ReceiptTotals {
  return {
    subtotal:
      items.length > 0
        ? sumAmounts(items.flatMap((item) => [item.lineTotal, item.discount]))
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
