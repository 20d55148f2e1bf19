import type { EarningRule } from '@loyalty/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { bearer } from '../../../test/helper';
import { useGroupCommit } from '../../db/group-commit';
import { accrualBatches } from '../ledger/accrual-batch';
import { arbitraryConfig, arbitraryItems } from '../ledger/earning-rules.fixtures';
import type { ReceiptLineInput } from '../ledger/receipt-math';
import { createCard, createPosKey, createRuleset, opId, posTestFile, till } from '../pos/pos.fixtures';
import { fillMissingLinesTexts, storedLinesText } from './backtest.repository';
import { backtestRuleset } from './backtest.service';

/**
 * POST /api/v1/rulesets/{id}/backtest recomputes stored receipts with the accrual's own computation: for the
 * same receipts it must say what the preview says, receipt by receipt, and write nothing.
 */
const { ctx, db, pos, posId } = await posTestFile({ ruleset: { percent: 5, excluded: ['E'] } });
const { app } = ctx;
const otherKey = await createPosKey(ctx);
const tills = [
  { till: pos, id: posId },
  { till: till(ctx, otherKey.apiKey), id: otherKey.id },
];

const backtest = (id: string, body: object, token = ctx.tokens.MANAGER) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/rulesets/${id}/backtest`,
    headers: bearer(token),
    payload: body,
  });
const dbNow = async () => (await sql<{ at: Date }>`select clock_timestamp() as at`.execute(db)).rows[0]!.at;
/**
 * The first millisecond after every stored receipt, returned once the database clock has passed it: a window
 * from here holds only receipts written afterwards, however fast the receipts before it were written.
 */
const afterLatestReceipt = async () => {
  const latest = (await sql<{ at: Date | null }>`select max(created_at) as at from receipts`.execute(db))
    .rows[0]!.at;
  const start = new Date((latest?.getTime() ?? 0) + 1);
  while ((await dbNow()).getTime() < start.getTime()) {
    // Busy-wait on the database's own clock, at most a millisecond: no sleep, no wall-clock guess.
  }
  return start;
};

// The dataset: receipts on cards of their own (so no day cap carries between them), from both tills.
const from = new Date((await dbNow()).getTime() - 1000).toISOString();
const receipts: Array<{ items: ReceiptLineInput[]; till: number; points: number }> = [];
const samples = fc.sample(arbitraryItems, { numRuns: 12, seed: 42 });
for (const [index, items] of samples.entries()) {
  const card = await createCard(db);
  const res = await tills[index % 2]!.till.accrue({
    operationId: opId('bt'),
    cardNumber: card.number,
    receipt: { receiptId: `BT-${index}`, items },
  });
  expect(res.statusCode).toBe(201);
  receipts.push({ items, till: index % 2, points: res.json().points });
}
const to = new Date((await dbNow()).getTime() + 1000).toISOString();
const range = { from, to };
const nowMinute = (() => {
  const d = new Date();
  return d.getUTCHours() * 60 + d.getUTCMinutes();
})();
const cents = (n: number) => Math.round(n * 100);
let version = 10;

/** Hours near the present minute could fall either side between the receipts and their previews. */
const awayFromNow = (rule: EarningRule) => {
  if (!rule.hours) return rule;
  const minute = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  const near = (t: string) => Math.abs(minute(t) - nowMinute) <= 5;
  return near(rule.hours.from) || near(rule.hours.to) ? { ...rule, hours: undefined } : rule;
};

describe('ruleset backtest', () => {
  it('equals the sum of the preview answers for the same receipts (property)', async () => {
    const previewCard = await createCard(db); // never accrues: its day total stays 0, as each receipt's card had
    await fc.assert(
      fc.asyncProperty(
        arbitraryConfig([posId, otherKey.id]),
        fc.uniqueArray(fc.constantFrom('A', 'B', 'C', 'D', 'E'), { maxLength: 2 }),
        async (config, excluded) => {
          const id = await createRuleset(db, {
            version: ++version,
            percent: config.percent,
            excluded,
            earningRules: {
              minSpend: config.minSpend,
              maxPointsPerReceipt: config.maxReceipt,
              maxPointsPerCardPerDay: config.maxDay,
              rules: config.rules.map(awayFromNow),
            },
          });
          let previewCents = 0;
          const byCategory = new Map<string | null, number>();
          for (const r of receipts) {
            const res = await tills[r.till]!.till.preview({
              cardNumber: previewCard.number,
              receipt: { receiptId: 'P', items: r.items },
            });
            expect(res.statusCode).toBe(200);
            previewCents += cents(res.json().points);
            for (const line of res.json().receipt.items)
              byCategory.set(line.category, (byCategory.get(line.category) ?? 0) + cents(line.bonusPoints));
          }
          const res = await backtest(id, range);
          expect(res.statusCode).toBe(200);
          const body = res.json();
          expect(cents(body.candidatePoints)).toBe(previewCents);
          expect(body.receipts).toBe(receipts.length);
          expect(body.accounts).toBe(receipts.length);
          expect(cents(body.currentPoints)).toBe(receipts.reduce((s, r) => s + cents(r.points), 0));
          expect(cents(body.delta)).toBe(cents(body.candidatePoints) - cents(body.currentPoints));
          expect(
            new Map(
              body.byCategory.map((c: { category: string | null; candidatePoints: number }) => [
                c.category,
                cents(c.candidatePoints),
              ]),
            ),
          ).toEqual(byCategory);
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);

  it('counts receipts per category, writes nothing, and answers an empty range with zeros', async () => {
    const id = await createRuleset(db, { version: ++version, percent: 1 });
    const count = async () =>
      (
        await sql<{
          n: number;
        }>`select (select count(*) from operations) + (select count(*) from receipt_items)
        + (select count(*) from audit_log) as n`.execute(db)
      ).rows[0]!.n;
    const before = await count();
    const body = (await backtest(id, range)).json();
    expect(await count()).toBe(before);
    const expected = new Map<string | null, number>();
    for (const r of receipts) {
      for (const category of new Set(r.items.map((i) => i.category)))
        expected.set(category, (expected.get(category) ?? 0) + 1);
    }
    expect(
      new Map(
        body.byCategory.map((c: { category: string | null; receipts: number }) => [c.category, c.receipts]),
      ),
    ).toEqual(expected);

    const empty = await backtest(id, { from: '2001-01-01T00:00:00Z', to: '2001-02-01T00:00:00Z' });
    expect(empty.json()).toEqual({
      receipts: 0,
      accounts: 0,
      currentPoints: 0,
      candidatePoints: 0,
      delta: 0,
      byCategory: [],
    });
  });

  it('walks receipts in batches without losing or repeating one at a batch edge', async () => {
    const id = await createRuleset(db, {
      version: ++version,
      percent: 3,
      earningRules: { maxPointsPerReceipt: 2, rules: [{ name: 'B', percent: 7, skus: ['B'] }] },
    });
    const whole = await backtestRuleset(db, id, range);
    for (const batchReceipts of [1, 2, 5])
      expect(await backtestRuleset(db, id, range, { batchReceipts })).toEqual(whole);
    // Computed a slice at a time between turns of the event loop: the per-card day carries across slices.
    for (const sliceReceipts of [1, 2])
      expect(await backtestRuleset(db, id, range, { batchReceipts: 5, sliceReceipts })).toEqual(whole);
    expect(whole.receipts).toBe(receipts.length);
  });

  it('reads SKUs and categories with tabs, quotes, backslashes and accents as the till sent them', async () => {
    const odd = 'TAB\there "quoted" \\ back';
    const items = [
      { sku: odd, category: 'cat\\egory\t2', quantity: 2, price: 10.5 },
      { sku: 'plain', category: null, quantity: 1, price: 3 },
      { sku: 'Ünïcödé ✓', category: 'dairy', quantity: 0.333, price: 7.77 },
      // No quote or backslash: sent between plain quotes, tab and newline raw (receipt_json_text, migration 028).
      { sku: 'tab\tonly', category: 'new\nline', quantity: 1, price: 4.2 },
    ];
    const start = (await afterLatestReceipt()).toISOString();
    const card = await createCard(db);
    expect(
      (
        await pos.accrue({
          operationId: opId('bt'),
          cardNumber: card.number,
          receipt: { receiptId: 'ODD', items },
        })
      ).statusCode,
    ).toBe(201);
    const end = new Date((await dbNow()).getTime() + 1000).toISOString();
    const id = await createRuleset(db, {
      version: ++version,
      percent: 2,
      excluded: ['plain'],
      earningRules: {
        rules: [
          { name: 'Odd', percent: 12.5, skus: [odd], categories: ['cat\\egory\t2'] },
          { name: 'Accents', percent: 4, skus: ['Ünïcödé ✓'] },
          { name: 'Tabbed', percent: 6, skus: ['tab\tonly'], categories: ['new\nline'] },
        ],
      },
    });
    const preview = await pos.preview({
      cardNumber: (await createCard(db)).number,
      receipt: { receiptId: 'P', items },
    });
    expect(preview.json().receipt.items.map((l: { rule: string }) => l.rule)).toEqual([
      'Odd',
      'excluded',
      'Accents',
      'Tabbed',
    ]);
    const body = (await backtest(id, { from: start, to: end })).json();
    expect(body.receipts).toBe(1);
    expect(cents(body.candidatePoints)).toBe(cents(preview.json().points));
    expect(body.byCategory.map((c: { category: string | null }) => c.category).sort()).toEqual(
      [null, 'cat\\egory\t2', 'dairy', 'new\nline'].sort(),
    );
  });

  it("reads receipts written before migration 028 through their lines, as the accrual's lines text says", async () => {
    // Every accrual so far (the odd SKUs above included) stored the text its stored lines make.
    const stored = await sql<{ same: number; total: number }>`
      select count(*) filter (where r.lines_text = ${storedLinesText(sql.ref('r.accrual_id'))})::int as same,
        count(*)::int as total from receipts r`.execute(db);
    expect(stored.rows[0]!.total).toBeGreaterThan(receipts.length);
    expect(stored.rows[0]!.same).toBe(stored.rows[0]!.total);
    const id = await createRuleset(db, {
      version: ++version,
      percent: 4,
      earningRules: {
        maxPointsPerReceipt: 3,
        rules: [{ name: 'Half', percent: 9, skus: ['A', 'B', 'C'] }],
      },
    });
    const packed = await backtestRuleset(db, id, range, { batchReceipts: 5 });
    expect(packed.receipts).toBeGreaterThanOrEqual(receipts.length);
    // As a receipt written before 028 is stored: no lines text.
    await sql`update receipts set lines_text = null`.execute(db);
    try {
      expect(await backtestRuleset(db, id, range, { batchReceipts: 5 })).toEqual(packed);
    } finally {
      // What `npm run rebuild-derived` does for receipts written before 028, in batches of 4 here.
      expect(await fillMissingLinesTexts(db, 4)).toBe(stored.rows[0]!.total);
    }
    expect(await backtestRuleset(db, id, range, { batchReceipts: 5 })).toEqual(packed);
    const after = await sql<{ same: number }>`
      select count(*) filter (where r.lines_text = ${storedLinesText(sql.ref('r.accrual_id'))})::int as same
      from receipts r`.execute(db);
    expect(after.rows[0]!.same).toBe(stored.rows[0]!.total);
  });

  it('MANAGER and ADMIN only; 404 for an unknown ruleset; 400 for a range that is empty or backwards', async () => {
    const id = await createRuleset(db, { version: ++version, percent: 1 });
    expect((await backtest(id, range, ctx.tokens.VIEWER)).statusCode).toBe(403);
    expect((await backtest(id, range, ctx.tokens.ADMIN)).statusCode).toBe(200);
    const missing = await backtest('00000000-0000-4000-8000-000000000001', range);
    expect(missing.json().code).toBe('RULESET_NOT_FOUND');
    const backwards = await backtest(id, { from: to, to: from });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().details[0].field).toBe('to');
    expect((await backtest(id, { from, to: 'yesterday' })).statusCode).toBe(400);
  });

  it("counts what a card earned that programme day before the range, as the accrual's day cap did", async () => {
    // The ruleset in force: backtesting it over receipts it booked must say what they earned (delta 0).
    const id = await createRuleset(db, {
      version: ++version,
      percent: 10,
      earningRules: { maxPointsPerCardPerDay: 15 },
    });
    const card = await createCard(db);
    const accrue = async (n: number) => {
      const res = await pos.accrue({
        operationId: opId('bt'),
        cardNumber: card.number,
        receipt: { receiptId: `DAY-${n}`, items: [{ sku: 'A', quantity: 1, price: 100 }] },
      });
      expect(res.statusCode).toBe(201);
      return cents(res.json().points);
    };
    await accrue(0); // earns 10 of the day's 15, before the range
    const start = (await afterLatestReceipt()).toISOString();
    const inRange = [await accrue(1), await accrue(2)];
    const end = new Date((await dbNow()).getTime() + 1000).toISOString();
    const body = (await backtest(id, { from: start, to: end })).json();
    expect(body.receipts).toBe(2);
    expect(cents(body.currentPoints)).toBe(inRange[0]! + inRange[1]!);
    expect(cents(body.candidatePoints)).toBe(cents(body.currentPoints));
    expect(body.delta).toBe(0);
  });

  it("meets a card's receipts of one group commit in the order its day cap met them", async () => {
    const id = await createRuleset(db, {
      version: ++version,
      percent: 10,
      earningRules: { maxPointsPerCardPerDay: 15 },
    });
    const cards = await Promise.all(Array.from({ length: 12 }, () => createCard(db)));
    const start = (await afterLatestReceipt()).toISOString();
    // Every accrual through its card's group commit (no batches across cards), paused while they are sent.
    accrualBatches.use(db, null);
    const commit = useGroupCommit(db, { lanes: 1, maxBatch: 16 });
    const resume = commit.pause();
    const sent: Array<ReturnType<typeof pos.accrue>> = [];
    try {
      // Each card's two accruals (X, then Y) wait in its paused group commit: one transaction, one created_at.
      for (const card of cards) {
        for (const category of ['X', 'Y']) {
          sent.push(
            pos.accrue({
              operationId: opId('gc'),
              cardNumber: card.number,
              receipt: { receiptId: opId('R'), items: [{ sku: 'S', category, quantity: 1, price: 100 }] },
            }),
          );
          await vi.waitFor(() => expect(commit.queued()).toBe(sent.length), { timeout: 60_000, interval: 2 });
        }
      }
      resume();
      const answers = await Promise.all(sent);
      // X earns 10; Y meets the day cap of 15 and earns the rest, 5.
      expect(answers.map((a) => a.json().points)).toEqual(cards.flatMap(() => [10, 5]));
    } finally {
      resume();
      useGroupCommit(db, { lanes: 1, maxBatch: 16 });
      accrualBatches.use(db, { lanes: 1, maxBatch: 16 });
    }
    const { rows } = await sql<{ n: number }>`select count(distinct created_at)::int as n from receipts
      where card_number = any(${cards.map((c) => c.number)})`.execute(db);
    expect(rows[0]!.n).toBeLessThanOrEqual(cards.length);
    const end = new Date((await dbNow()).getTime() + 1000).toISOString();
    const body = (await backtest(id, { from: start, to: end })).json();
    // Before, the receipts of one transaction were walked by a random id: Y first for about half the cards.
    expect(body).toMatchObject({ receipts: 24, delta: 0 });
    expect(
      body.byCategory.map((c: { category: string; currentPoints: number; candidatePoints: number }) => [
        c.category,
        c.currentPoints,
        c.candidatePoints,
      ]),
    ).toEqual([
      ['X', 120, 120],
      ['Y', 60, 60],
    ]);
  });
});
