import { AppError } from '../../lib/app-error';
import {
  type Cents,
  centsText,
  divRound,
  milliNumber,
  milliText,
  minBig,
  parseCents,
  parseMilli,
  toMilli,
} from '../../lib/money';
import { availableCents } from './available';
import type { LockedLine } from './returns.repository';

export interface ReturnPlan {
  lines: Array<{ lineNo: number; returnedQuantity: string; returnedPoints: string }>;
  /** Points the returned lines earned (cents): what the return should take back. */
  pointsCents: bigint;
}

/**
 * Which quantities of which lines come back, and the points they earned. A line's returned points are
 * always round2(bonus × returnedQuantity / quantity) over everything returned so far, so several partial
 * returns add up to exactly the line's bonus when it is all back, never more.
 */
export function planReturn(
  lines: LockedLine[],
  items?: Array<{ sku: string; quantity: number }>,
): ReturnPlan {
  const remaining = lines.map((l) => parseMilli(l.quantity) - parseMilli(l.returned_quantity));
  const back = lines.map(() => 0n);
  if (!items) {
    remaining.forEach((r, i) => {
      back[i] = r;
    });
  } else {
    const wanted = new Map<string, bigint>();
    for (const item of items) wanted.set(item.sku, (wanted.get(item.sku) ?? 0n) + toMilli(item.quantity));
    for (const [sku, quantity] of wanted) {
      const indexes = lines.flatMap((l, i) => (l.sku === sku ? [i] : []));
      if (indexes.length === 0)
        throw new AppError('RETURN_NOT_ALLOWED', `SKU '${sku}' is not on the receipt`);
      const left = indexes.reduce((sum, i) => sum + remaining[i]!, 0n);
      if (quantity > left) {
        throw new AppError(
          'RETURN_NOT_ALLOWED',
          `Only ${milliNumber(left)} of SKU '${sku}' can still be returned`,
        );
      }
      let toGo = quantity;
      for (const i of indexes) {
        const take = toGo < remaining[i]! ? toGo : remaining[i]!;
        back[i] = take;
        toGo -= take;
      }
    }
  }
  if (back.every((q) => q === 0n)) throw new AppError('RETURN_NOT_ALLOWED');

  let pointsCents = 0n;
  const planned: ReturnPlan['lines'] = [];
  lines.forEach((line, i) => {
    if (back[i] === 0n) return;
    const quantity = parseMilli(line.quantity);
    const bonus = parseCents(line.bonus_points);
    const returnedQuantity = parseMilli(line.returned_quantity) + back[i]!;
    const returnedPoints =
      returnedQuantity === quantity ? bonus : divRound(bonus * returnedQuantity, quantity);
    pointsCents += returnedPoints - parseCents(line.returned_points);
    planned.push({
      lineNo: line.line_no,
      returnedQuantity: milliText(returnedQuantity),
      returnedPoints: centsText(returnedPoints),
    });
  });
  return { lines: planned, pointsCents };
}

/**
 * How much of the points a return should take back the account can give: what is left of its accrual's
 * lot while pending, plus what is available (balance − held − pending), so holds stay covered and other
 * pending lots are not touched (PROGRAMME-API §1: the return's own lot first, then as a capture takes);
 * what cannot be taken is the shortfall, recorded in the meta. Without lots pending this is balance − held.
 */
export function returnDeduction(
  pointsCents: Cents,
  account: { balance: string; held_balance: string },
  lots: { pending: string; own_pending: string } = { pending: '0', own_pending: '0' },
): { taken: Cents; shortfall: Cents } {
  const available = availableCents({
    balance: parseCents(account.balance),
    held: parseCents(account.held_balance),
    pending: parseCents(lots.pending),
  });
  const taken = minBig(pointsCents, available + parseCents(lots.own_pending));
  return { taken, shortfall: pointsCents - taken };
}
