import type { EarningRule } from '@loyalty/contracts';
import fc from 'fast-check';
import type { ReceiptLineInput } from './receipt-math';

/**
 * The reference: PROGRAMME-API §3 read literally, plain loops and plain numbers in cents, written apart from
 * the server's code (no shared helper) so that a mistake in one shows as a difference.
 */
export function referencePoints(
  items: ReceiptLineInput[],
  config: {
    percent: number;
    minSpend: number | null;
    maxReceipt: number | null;
    maxDay: number | null;
    rules: EarningRule[];
  },
  excluded: string[],
  where: { posId: string; day: number; minute: number; earnedToday: number },
): Array<{ rule: string; cents: number }> {
  const round = (x: number) => Math.sign(x) * Math.round(Math.abs(x) + 1e-9);
  const totals: number[] = [];
  let total = 0;
  for (const item of items) {
    const gross = round((Math.round(item.quantity * 1000) * Math.round(item.price * 100)) / 1000);
    const t = Math.max(gross - Math.round(item.discount * 100), 0);
    totals.push(t);
    total += t;
  }
  const out: Array<{ rule: string; cents: number }> = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (excluded.includes(item.sku)) {
      out.push({ rule: 'excluded', cents: 0 });
      continue;
    }
    if (config.minSpend !== null && total < Math.round(config.minSpend * 100)) {
      out.push({ rule: 'minSpend', cents: 0 });
      continue;
    }
    let best: EarningRule | null = null;
    for (const r of config.rules) {
      if (r.categories?.length && (item.category === null || !r.categories.includes(item.category))) continue;
      if (r.skus?.length && !r.skus.includes(item.sku)) continue;
      if (r.posIds?.length && !r.posIds.includes(where.posId)) continue;
      if (r.daysOfWeek?.length && !r.daysOfWeek.includes(where.day)) continue;
      if (r.hours) {
        const from = Number(r.hours.from.slice(0, 2)) * 60 + Number(r.hours.from.slice(3));
        const to = Number(r.hours.to.slice(0, 2)) * 60 + Number(r.hours.to.slice(3));
        const inside =
          from <= to
            ? where.minute >= from && where.minute <= to
            : where.minute >= from || where.minute <= to;
        if (!inside) continue;
      }
      if (best === null || r.percent > best.percent) best = r;
    }
    const percentHundredths = Math.round((best ? best.percent : config.percent) * 100);
    out.push({ rule: best ? best.name : 'base', cents: round((totals[i]! * percentHundredths) / 10_000) });
  }
  let room: number | null = null;
  if (config.maxReceipt !== null) room = Math.round(config.maxReceipt * 100);
  if (config.maxDay !== null) {
    const left = Math.max(Math.round(config.maxDay * 100) - where.earnedToday, 0);
    room = room === null ? left : Math.min(room, left);
  }
  if (room !== null) {
    for (const o of out) {
      if (o.cents <= 0) continue;
      if (o.cents > room) {
        o.cents = room;
        o.rule = 'cap';
      }
      room -= o.cents;
    }
  }
  return out;
}

export const SKUS = ['A', 'B', 'C', 'D', 'E'];
const CATEGORIES = ['dairy', 'bakery', 'drinks'];
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

export const arbitraryItems = fc.array(
  fc.record({
    sku: fc.constantFrom(...SKUS),
    category: fc.constantFrom(null, ...CATEGORIES),
    quantity: fc.integer({ min: 1, max: 5000 }).map((m) => m / 1000),
    price: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
    discount: fc.constant(0),
  }),
  { minLength: 1, maxLength: 8 },
);

export const arbitraryRule = (posIds: string[]) =>
  fc
    .record(
      {
        percent: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
        categories: fc.uniqueArray(fc.constantFrom(...CATEGORIES), { maxLength: 2 }),
        skus: fc.uniqueArray(fc.constantFrom(...SKUS), { maxLength: 3 }),
        posIds: fc.uniqueArray(fc.constantFrom(...posIds), { maxLength: 1 }),
        daysOfWeek: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 4 }),
        // Any two minutes: a from after to runs past midnight, equal ones are that minute.
        hours: fc
          .tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }))
          .map(([a, b]) => ({ from: hhmm(a), to: hhmm(b) })),
      },
      { requiredKeys: ['percent'] },
    )
    .map((r) => r as Omit<EarningRule, 'name'>);

export const arbitraryConfig = (posIds: string[]) =>
  fc.record({
    percent: fc.integer({ min: 0, max: 10_000 }).map((c) => c / 100),
    minSpend: fc.option(fc.integer({ min: 0, max: 20_000 }).map((c) => c / 100)),
    maxReceipt: fc.option(fc.integer({ min: 0, max: 50_000 }).map((c) => c / 100)),
    maxDay: fc.option(fc.integer({ min: 0, max: 50_000 }).map((c) => c / 100)),
    rules: fc
      .array(arbitraryRule(posIds), { maxLength: 6 })
      .map((list) => list.map((r, i) => ({ ...r, name: `Rule ${i + 1}` }) as EarningRule)),
  });
