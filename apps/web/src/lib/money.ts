import { toNumber } from './format';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * Money as receipts (and Finance) show it: en-US, always two decimals, with the programme's currency
 * ("€1,249.99", "$0.10"). An unknown code falls back to the code itself before the amount.
 */
export function formatMoney(value: number | string | null | undefined, currency: string): string {
  let format = formats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
    } catch {
      format = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      return `${currency} ${format.format(toNumber(value))}`;
    }
    formats.set(currency, format);
  }
  return format.format(toNumber(value));
}

/**
 * A sum of 2-decimal amounts (money or points; numbers or numeric strings), added up in cents, so many of
 * them pick up no binary fractions (0.1 + 0.2 shows as 0.3). The console's one such sum.
 */
export function sumAmounts(values: Iterable<number | string>): number {
  let cents = 0;
  for (const value of values) cents += Math.round(toNumber(value) * 100);
  return cents / 100;
}
