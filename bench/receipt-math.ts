/**
 * `npx tsx bench/receipt-math.ts`: the receipt computation alone (no database), 200,000 receipts of 5 lines
 * with a 20-rule ruleset (and both caps), the programme clock read per receipt, two ways:
 * - as the accrual and the preview run it: `computeReceipt` over request-like items (each receipt's lines
 *   built and parsed as JSON first, as the backtest did before it read batches as text);
 * - as the ruleset backtest runs it: `earnLines` over one reused set of line arrays.
 * Says what the TypeScript side of a backtest costs per receipt on this machine.
 */
import { compileRuleset } from '../apps/server/src/modules/ledger/earning-rules';
import { programmeTime } from '../apps/server/src/modules/ledger/programme-clock';
import { computeReceipt, earnLines, newEarningLines } from '../apps/server/src/modules/ledger/receipt-math';

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
const excluded = new Set<string>();

function timed(label: string, run: () => bigint | number) {
  const started = performance.now();
  const points = run();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label}: ${RECEIPTS} receipts in ${seconds.toFixed(2)} s (${((seconds / RECEIPTS) * 1e6).toFixed(1)} µs each); Σ ${points} cents`,
  );
}

timed('computeReceipt (accrual, preview)', () => {
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
      excluded,
      purchase: { posId: 'pos', dayOfWeek: time.dayOfWeek, minute: time.minute },
      earnedTodayCents: 0n,
    }).pointsCents;
  }
  return points;
});

timed('earnLines (backtest)', () => {
  const lines = newEarningLines();
  let points = 0;
  for (let r = 0; r < RECEIPTS; r++) {
    const time = programmeTime(new Date(Date.now() - r * 13_000), 'UTC');
    for (let l = 0; l < 5; l++) {
      lines.skus[l] = `SKU-${(r * 7 + l * 13) % 60}`;
      lines.categories[l] = categories[l] ?? null;
      lines.totalsCents[l] = 1000;
    }
    lines.count = 5;
    points += earnLines(lines, 5000, {
      ruleset,
      excluded,
      purchase: { posId: 'pos', dayOfWeek: time.dayOfWeek, minute: time.minute },
      earnedTodayCents: 0,
    });
  }
  return points;
});
