import { centsNumber, centsOf, milliNumber, milliOf, mulDivRound } from '../../lib/money';
import { type CompiledRuleset, type Purchase, ruleForLine } from './earning-rules';

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

/** Why a line earned what it did: a rule's name, or one of the outcomes the contract names. */
export type LineRule = string;

export interface ComputedLine extends ReceiptLineTotals {
  bonusCents: bigint;
  rule: LineRule;
}

export interface ReceiptTotals<L extends ReceiptLineTotals = ReceiptLineTotals> {
  lines: L[];
  totalAmountCents: bigint;
  totalDiscountCents: bigint;
}

export interface ComputedReceipt extends ReceiptTotals<ComputedLine> {
  pointsCents: bigint;
}

/**
 * lineTotal = quantity × price − discount, to the cent (half away from zero), in plain-number cents and
 * thousandths. The request check lets a discount reach this rounded gross (`lineGrossCents` in the contracts);
 * the floor at 0 only guards callers that skip it.
 */
export function lineTotalCents(quantityMilli: number, priceCents: number, discountCents: number): number {
  const total = mulDivRound(quantityMilli, priceCents, 1000) - discountCents;
  return total < 0 ? 0 : total;
}

/** lineTotal for each line (`lineTotalCents`); totalAmount = Σ lineTotal (what was paid). */
export function receiptTotals(items: ReceiptLineInput[]): ReceiptTotals {
  let totalAmountCents = 0n;
  let totalDiscountCents = 0n;
  const lines = items.map((item, index) => {
    const quantityMilli = milliOf(item.quantity);
    const priceCents = centsOf(item.price);
    const discountCents = centsOf(item.discount);
    const lineTotal = BigInt(lineTotalCents(quantityMilli, priceCents, discountCents));
    totalAmountCents += lineTotal;
    totalDiscountCents += BigInt(discountCents);
    return {
      lineNo: index + 1,
      sku: item.sku,
      category: item.category,
      quantityMilli: BigInt(quantityMilli),
      priceCents: BigInt(priceCents),
      discountCents: BigInt(discountCents),
      lineTotalCents: lineTotal,
    };
  });
  return { lines, totalAmountCents, totalDiscountCents };
}

/** The ruleset a receipt is computed with, and what its caps have to work with. */
export interface EarningContext {
  ruleset: CompiledRuleset;
  /** Which of the receipt's SKUs the ruleset excludes. */
  excluded: ReadonlySet<string>;
  purchase: Purchase;
  /** What the card already earned on this programme day (for maxPointsPerCardPerDay). */
  earnedTodayCents: bigint;
}

/** EarningContext with what the card earned today in plain-number cents, as `earnLines` reads it. */
export type PlainEarningContext = Omit<EarningContext, 'earnedTodayCents'> & { earnedTodayCents: number };

/**
 * A receipt's lines as `earnLines` reads and answers them: parallel arrays of plain numbers, so that the
 * backtest can fill one set for every receipt it walks instead of building objects per line.
 */
export interface EarningLines {
  count: number;
  skus: string[];
  categories: (string | null)[];
  totalsCents: number[];
  /** Written by `earnLines`: what each line earns and why. */
  bonusCents: number[];
  rules: LineRule[];
}

export const newEarningLines = (): EarningLines => ({
  count: 0,
  skus: [],
  categories: [],
  totalsCents: [],
  bonusCents: [],
  rules: [],
});

/**
 * The one definition of what a receipt earns (POS-API.md "Accrual", PROGRAMME-API §3), used by the accrual,
 * the preview, the receipt's explanation (each line's `rule`, through `computeReceipt`) and the backtest:
 * - an excluded SKU earns 0 (`excluded`), whatever else applies;
 * - a receipt whose totalAmount is below minSpend earns 0 on every other line (`minSpend`);
 * - otherwise a line earns round2(lineTotal × percent / 100) (half away from zero, as PostgreSQL's round),
 *   percent being the highest among the rules matching it (`ruleForLine`) or the base (`base`);
 * - the caps (per receipt, and per card per day minus what the card earned today) are then credited in line
 *   order: the line that crosses gets the rest, later lines 0, both marked `cap`.
 * Returns points = Σ bonus, in cents. No SQL computes a bonus: the ledger writes these figures as they are.
 */
export function earnLines(
  lines: EarningLines,
  totalAmountCents: number,
  context: PlainEarningContext,
): number {
  const { ruleset, excluded, purchase } = context;
  const belowMinSpend = ruleset.minSpendCents !== null && totalAmountCents < ruleset.minSpendCents;
  let room = capRoom(ruleset, context.earnedTodayCents);
  let pointsCents = 0;
  for (let i = 0; i < lines.count; i++) {
    const sku = lines.skus[i]!;
    if (excluded.has(sku)) {
      lines.bonusCents[i] = 0;
      lines.rules[i] = 'excluded';
      continue;
    }
    if (belowMinSpend) {
      lines.bonusCents[i] = 0;
      lines.rules[i] = 'minSpend';
      continue;
    }
    const rule = ruleForLine(ruleset, purchase, sku, lines.categories[i] ?? null);
    let bonusCents = mulDivRound(
      lines.totalsCents[i]!,
      rule ? rule.basisPoints : ruleset.baseBasisPoints,
      10_000,
    );
    let name = rule ? rule.name : 'base';
    if (room !== null && bonusCents > 0) {
      if (bonusCents > room) {
        bonusCents = room;
        name = 'cap';
      }
      room -= bonusCents;
    }
    pointsCents += bonusCents;
    lines.bonusCents[i] = bonusCents;
    lines.rules[i] = name;
  }
  return pointsCents;
}

/** What the caps still allow on this receipt, or null when it has none. */
function capRoom(ruleset: CompiledRuleset, earnedTodayCents: number): number | null {
  let room = ruleset.maxPerReceiptCents;
  if (ruleset.maxPerCardPerDayCents !== null) {
    const left = Math.max(ruleset.maxPerCardPerDayCents - earnedTodayCents, 0);
    room = room === null ? left : Math.min(room, left);
  }
  return room;
}

/** A receipt's lines, totals and points (`earnLines`) in the ledger's BigInt cents, as the accrual writes them. */
export function computeReceipt(items: ReceiptLineInput[], context: EarningContext): ComputedReceipt {
  const totals = receiptTotals(items);
  const lines = newEarningLines();
  lines.count = totals.lines.length;
  for (const line of totals.lines) {
    lines.skus.push(line.sku);
    lines.categories.push(line.category);
    lines.totalsCents.push(Number(line.lineTotalCents));
  }
  const pointsCents = earnLines(lines, Number(totals.totalAmountCents), {
    ...context,
    earnedTodayCents: Number(context.earnedTodayCents),
  });
  return {
    ...totals,
    lines: totals.lines.map((line, i) => ({
      ...line,
      bonusCents: BigInt(lines.bonusCents[i]!),
      rule: lines.rules[i]!,
    })),
    pointsCents: BigInt(pointsCents),
  };
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
    rule: line.rule,
  };
}
