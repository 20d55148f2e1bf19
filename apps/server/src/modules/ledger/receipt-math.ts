import { centsNumber, divRound, milliNumber, parseCents, toCents, toMilli } from '../../lib/money';

export interface ReceiptLineInput {
  sku: string;
  category: string | null;
  quantity: number;
  price: number;
  discount: number;
}

export interface ReceiptLineTotals {
  lineNo: number;
  sku: string;
  category: string | null;
  quantityMilli: bigint;
  priceCents: bigint;
  discountCents: bigint;
  lineTotalCents: bigint;
}

export interface ComputedLine extends ReceiptLineTotals {
  bonusCents: bigint;
}

export interface ReceiptTotals<L extends ReceiptLineTotals = ReceiptLineTotals> {
  lines: L[];
  totalAmountCents: bigint;
  totalDiscountCents: bigint;
}

export interface ComputedReceipt extends ReceiptTotals<ComputedLine> {
  pointsCents: bigint;
}

/** lineTotal = quantity × price − discount, to the cent; totalAmount = Σ lineTotal (what was paid). */
export function receiptTotals(items: ReceiptLineInput[]): ReceiptTotals {
  let totalAmountCents = 0n;
  let totalDiscountCents = 0n;
  const lines = items.map((item, index) => {
    const quantityMilli = toMilli(item.quantity);
    const priceCents = toCents(item.price);
    const discountCents = toCents(item.discount);
    let lineTotalCents = divRound(quantityMilli * priceCents, 1000n) - discountCents;
    // The request check allows for float noise; a discount a hair above the gross caps the line at 0.
    if (lineTotalCents < 0n) lineTotalCents = 0n;
    totalAmountCents += lineTotalCents;
    totalDiscountCents += discountCents;
    return {
      lineNo: index + 1,
      sku: item.sku,
      category: item.category,
      quantityMilli,
      priceCents,
      discountCents,
      lineTotalCents,
    };
  });
  return { lines, totalAmountCents, totalDiscountCents };
}

/**
 * POS-API.md "Accrual": an excluded SKU earns 0; otherwise bonusPoints = round2(lineTotal × percent / 100)
 * (half away from zero, as PostgreSQL's round on numeric); points = Σ. The ledger's accrual writes these
 * figures as they are (`postAccrual`) and the preview shows them, so no SQL computes a bonus.
 */
export function computeReceipt(
  items: ReceiptLineInput[],
  percent: string,
  excluded: ReadonlySet<string>,
): ComputedReceipt {
  const basisPoints = parseCents(percent); // percent × 100
  const totals = receiptTotals(items);
  let pointsCents = 0n;
  const lines = totals.lines.map((line) => {
    const bonusCents = excluded.has(line.sku) ? 0n : divRound(line.lineTotalCents * basisPoints, 10_000n);
    pointsCents += bonusCents;
    return { ...line, bonusCents };
  });
  return { ...totals, lines, pointsCents };
}

export function lineToWire(line: ComputedLine) {
  return {
    sku: line.sku,
    category: line.category,
    quantity: milliNumber(line.quantityMilli),
    price: centsNumber(line.priceCents),
    discount: centsNumber(line.discountCents),
    lineTotal: centsNumber(line.lineTotalCents),
    bonusPoints: centsNumber(line.bonusCents),
  };
}
