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
