import { centsNumber, divRound, maxBig, milliNumber, minBig, toCents, toMilli } from '../../lib/money';
import { type CompiledRuleset, type Purchase, ruleForLine, rulesForPurchase } from './earning-rules';

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

/** The ruleset a receipt is computed with, and what its caps have to work with. */
export interface EarningContext {
  ruleset: CompiledRuleset;
  /** Which of the receipt's SKUs the ruleset excludes. */
  excluded: ReadonlySet<string>;
  purchase: Purchase;
  /** What the card already earned on this programme day (for maxPointsPerCardPerDay). */
  earnedTodayCents: bigint;
}

/**
 * The one definition of what a receipt earns (POS-API.md "Accrual", PROGRAMME-API §3), used by the accrual,
 * the preview, the receipt's explanation (each line's `rule`) and the backtest:
 * - an excluded SKU earns 0 (`excluded`), whatever else applies;
 * - a receipt whose totalAmount is below minSpend earns 0 on every other line (`minSpend`);
 * - otherwise a line earns round2(lineTotal × percent / 100) (half away from zero, as PostgreSQL's round),
 *   percent being the highest among the rules matching it (`ruleForLine`) or the base (`base`);
 * - the caps (per receipt, and per card per day minus what the card earned today) are then credited in line
 *   order: the line that crosses gets the rest, later lines 0, both marked `cap`.
 * points = Σ bonus. No SQL computes a bonus: the ledger writes these figures as they are.
 */
export function computeReceipt(items: ReceiptLineInput[], context: EarningContext): ComputedReceipt {
  const { ruleset, excluded } = context;
  const totals = receiptTotals(items);
  const belowMinSpend = ruleset.minSpendCents !== null && totals.totalAmountCents < ruleset.minSpendCents;
  const candidates =
    ruleset.rules.length > 0 && !belowMinSpend ? rulesForPurchase(ruleset.rules, context.purchase) : [];
  let room = capRoom(ruleset, context.earnedTodayCents);
  let pointsCents = 0n;
  const lines = totals.lines.map((line): ComputedLine => {
    if (excluded.has(line.sku)) return { ...line, bonusCents: 0n, rule: 'excluded' };
    if (belowMinSpend) return { ...line, bonusCents: 0n, rule: 'minSpend' };
    const rule = candidates.length > 0 ? ruleForLine(candidates, line) : null;
    const basisPoints = rule ? rule.basisPoints : ruleset.baseBasisPoints;
    let bonusCents = divRound(line.lineTotalCents * basisPoints, 10_000n);
    let name = rule ? rule.name : 'base';
    if (room !== null && bonusCents > 0n) {
      if (bonusCents > room) {
        bonusCents = room;
        name = 'cap';
      }
      room -= bonusCents;
    }
    pointsCents += bonusCents;
    return { ...line, bonusCents, rule: name };
  });
  return { ...totals, lines, pointsCents };
}

/** What the caps still allow on this receipt, or null when it has none. */
function capRoom(ruleset: CompiledRuleset, earnedTodayCents: bigint): bigint | null {
  let room: bigint | null = ruleset.maxPerReceiptCents;
  if (ruleset.maxPerCardPerDayCents !== null) {
    const left = maxBig(ruleset.maxPerCardPerDayCents - earnedTodayCents, 0n);
    room = room === null ? left : minBig(room, left);
  }
  return room;
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
