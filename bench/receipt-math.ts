/**
 * `npx tsx bench/receipt-math.ts`: the receipt computation alone (no database), as the ruleset backtest runs it:
 * 200,000 receipts of 5 lines with a 20-rule ruleset (and both caps), each receipt's lines built and parsed as
 * the JSON the backtest's batches carry, the programme clock read per receipt. Says what the TypeScript side of a
 * backtest costs per receipt on this machine.
 */
import { compileRuleset } from '../apps/server/src/modules/ledger/earning-rules';
import { programmeTime } from '../apps/server/src/modules/ledger/programme-clock';
import { computeReceipt } from '../apps/server/src/modules/ledger/receipt-math';

const RECEIPTS = 200_000;
const rules = Array.from({ length: 20 }, (_, i) => ({
  name: `R${i}`,
  percent: 5 + i,
  categories: i % 2 ? ['grocery'] : ['drinks', 'bakery'],
  skus: Array.from({ length: 5 }, (_, j) => `SKU-${(i * 3 + j) % 60}`),
  daysOfWeek: [1, 2, 3, 4, 5],
  hours: { from: '08:00', to: '20:00' },
}));
const ruleset = compileRuleset('5.00', { rules, maxPointsPerReceipt: 4, maxPointsPerCardPerDay: 20 });
const categories = ['dairy', 'bakery', 'drinks', 'grocery', null];
const started = performance.now();
let points = 0n;
for (let r = 0; r < RECEIPTS; r++) {
  const time = programmeTime(new Date(Date.now() - r * 13_000), 'UTC');
  const json = JSON.stringify(
    Array.from({ length: 5 }, (_, l) => [
      `SKU-${(r * 7 + l * 13) % 60}`,
      categories[l],
      '1.000',
      '10.00',
      '0.00',
      '0.50',
    ]),
  );
  const lines = JSON.parse(json) as [string, string | null, string, string, string, string][];
  const items = lines.map(([sku, category, q, p, d]) => ({
    sku,
    category,
    quantity: Number(q),
    price: Number(p),
    discount: Number(d),
  }));
  points += computeReceipt(items, {
    ruleset,
    excluded: new Set(),
    purchase: { posId: 'pos', dayOfWeek: time.dayOfWeek, minute: time.minute },
    earnedTodayCents: 0n,
  }).pointsCents;
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `${RECEIPTS} receipts computed in ${seconds.toFixed(2)} s (${((seconds / RECEIPTS) * 1e6).toFixed(0)} µs each); Σ ${points} cents`,
);
