import type { RulesetAdvanced } from '@loyalty/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { arbitraryConfig, arbitraryItems, referencePoints } from '../ledger/earning-rules.fixtures';
import { programmeTime } from '../ledger/programme-clock';
import { accountOf, createCard, createPosKey, createRuleset, opId, posTestFile, till } from './pos.fixtures';

/**
 * Earning rules v2 through the real POS accrual (PROGRAMME-API §3): what the till is answered, what is
 * stored on each receipt line and what a return takes back. On PostgreSQL the concurrency test really races.
 */
const { ctx, db, pos, posId } = await posTestFile();
const races = ctx.database.kind === 'postgres';
let version = 100;
/** A new ruleset in force (the highest version so far). */
const inForce = (percent: number, earningRules: Partial<RulesetAdvanced> | null, excluded: string[] = []) =>
  createRuleset(db, { version: ++version, percent, earningRules, excluded });
const receipt = (items: unknown[]) => ({ receiptId: `R-${version}`, items });

async function setTimeZone(zone: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/settings',
    headers: bearer(ctx.tokens.ADMIN),
    payload: { programme: { timezone: zone } },
  });
  expect(res.statusCode).toBe(200);
}

describe('POS accrual with earning rules', () => {
  it('answers, stores and shows each line’s rule; the preview says the same', async () => {
    await inForce(
      1,
      {
        rules: [
          { name: 'Dairy x3', percent: 3, categories: ['dairy'] },
          { name: 'Here', percent: 2, posIds: [posId] },
        ],
        maxPointsPerReceipt: 5,
      },
      ['TOBACCO'],
    );
    const card = await createCard(db);
    const items = [
      { sku: 'MILK', category: 'dairy', quantity: 1, price: 100 },
      { sku: 'TOBACCO', category: 'dairy', quantity: 1, price: 100 },
      { sku: 'BREAD', quantity: 1, price: 100 },
      { sku: 'TV', quantity: 1, price: 100 },
    ];
    const preview = await pos.preview({ cardNumber: card.number, receipt: receipt(items) });
    const res = await pos.accrue({ operationId: opId(), cardNumber: card.number, receipt: receipt(items) });
    expect(res.statusCode).toBe(201);
    const lines = res
      .json()
      .receipt.items.map((i: { rule: string; bonusPoints: number }) => [i.rule, i.bonusPoints]);
    expect(lines).toEqual([
      ['Dairy x3', 3],
      ['excluded', 0],
      ['Here', 2], // reaches the cap exactly: not cut
      ['cap', 0],
    ]);
    expect(res.json().points).toBe(5);
    expect(preview.json().receipt.items).toEqual(res.json().receipt.items);

    const op = await db
      .selectFrom('operations')
      .select('id')
      .where('operation_id', '=', res.json().operationId)
      .executeTakeFirstOrThrow();
    const detail = await ctx.app.inject({
      url: `/api/v1/receipts/operation/${op.id}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(detail.json().items.map((i: { rule: string }) => i.rule)).toEqual([
      'Dairy x3',
      'excluded',
      'Here',
      'cap',
    ]);
  });

  it('a return takes back what each returned line actually earned (after the cap)', async () => {
    await inForce(10, { maxPointsPerReceipt: 15 });
    const card = await createCard(db);
    const operationId = opId();
    const items = [
      { sku: 'A', quantity: 1, price: 100 },
      { sku: 'B', quantity: 1, price: 100 },
      { sku: 'C', quantity: 1, price: 100 },
    ];
    expect(
      (await pos.accrue({ operationId, cardNumber: card.number, receipt: receipt(items) })).json().points,
    ).toBe(15);
    const back = async (sku: string) =>
      (
        await pos.returns({
          operationId: opId(),
          originalOperationId: operationId,
          items: [{ sku, quantity: 1 }],
        })
      ).json().points;
    expect(await back('B')).toBe(-5); // B earned 5 (the cap's rest), not 10
    expect(await back('C')).toBe(0); // C earned nothing
    expect(await back('A')).toBe(-10);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 0, held: 0 });
  });

  it('rules read the programme time zone (a late-evening rule in Berlin is not one in UTC)', async () => {
    const now = await sql<{ at: Date }>`select now() as at`.execute(db);
    const berlin = programmeTime(now.rows[0]!.at, 'Europe/Berlin');
    const utc = programmeTime(now.rows[0]!.at, 'UTC');
    // A one-hour window around Berlin's present minute (unless that is also UTC's, which it never is).
    const from = Math.max(berlin.minute - 30, 0);
    const to = Math.min(berlin.minute + 30, 1439);
    const hhmm = (m: number) =>
      `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    await inForce(1, {
      rules: [{ name: 'Berlin hour', percent: 50, hours: { from: hhmm(from), to: hhmm(to) } }],
    });
    const card = await createCard(db);
    const body = () => ({
      cardNumber: card.number,
      receipt: receipt([{ sku: 'A', quantity: 1, price: 10 }]),
    });
    try {
      await setTimeZone('Europe/Berlin');
      expect((await pos.preview(body())).json().receipt.items[0].rule).toBe('Berlin hour');
      await setTimeZone('UTC');
      const utcMatches = utc.minute >= from && utc.minute <= to;
      expect((await pos.preview(body())).json().receipt.items[0].rule).toBe(
        utcMatches ? 'Berlin hour' : 'base',
      );
    } finally {
      await setTimeZone('UTC');
    }
  });

  it('rules read the purchase time of an offline till (purchasedAt), not when it syncs', async () => {
    const bought = new Date(Date.now() - 2 * 86_400_000);
    bought.setUTCHours(12, 0, 0, 0);
    const day = programmeTime(bought, 'UTC').dayOfWeek;
    await inForce(1, { rules: [{ name: 'That day', percent: 40, daysOfWeek: [day] }] });
    const card = await createCard(db);
    const items = [{ sku: 'A', quantity: 1, price: 10 }];
    const late = await pos.accrue({
      operationId: opId(),
      cardNumber: card.number,
      receipt: { ...receipt(items), purchasedAt: bought.toISOString() },
    });
    expect(late.statusCode).toBe(201);
    expect(late.json().receipt.items[0]).toMatchObject({ rule: 'That day', bonusPoints: 4 });
    const now = await pos.preview({ cardNumber: card.number, receipt: receipt(items) });
    expect(now.json().receipt.items[0].rule).toBe('base');
  });

  it('equals the reference on every line for random receipts and rulesets (a sample through HTTP)', async () => {
    const other = await createPosKey(ctx);
    const tills = [
      { till: pos, id: posId },
      { till: till(ctx, other.apiKey), id: other.id },
    ];
    await fc.assert(
      fc.asyncProperty(
        arbitraryItems,
        arbitraryConfig([posId, other.id]),
        fc.uniqueArray(fc.constantFrom('A', 'B', 'C', 'D', 'E'), { maxLength: 2 }),
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 0, max: 3 }),
        async (items, config, excluded, which, earlier) => {
          await inForce(
            config.percent,
            {
              minSpend: config.minSpend,
              maxPointsPerReceipt: config.maxReceipt,
              maxPointsPerCardPerDay: config.maxDay,
              rules: config.rules,
            },
            excluded,
          );
          const card = await createCard(db);
          const { till: t, id } = tills[which]!;
          // Earlier receipts of the card today feed its day cap.
          for (let i = 0; i < earlier; i++) {
            const r = await t.accrue({
              operationId: opId(),
              cardNumber: card.number,
              receipt: receipt(items),
            });
            expect(r.statusCode).toBe(201);
          }
          const res = await t.accrue({
            operationId: opId(),
            cardNumber: card.number,
            receipt: receipt(items),
          });
          expect(res.statusCode).toBe(201);
          const stored = await sql<{ at: Date; earned: string }>`
            select r.created_at as at, (select coalesce(sum(o.points), 0) from operations o
              where o.card_id = ${card.cardId}::uuid and o.type = 'accrual' and o.id <> r.accrual_id)::text as earned
            from receipts r join operations o on o.id = r.accrual_id
            where o.operation_id = ${res.json().operationId}`.execute(db);
          const { at, earned } = stored.rows[0]!;
          const time = programmeTime(at, 'UTC');
          const expected = referencePoints(items, config, excluded, {
            posId: id,
            day: time.dayOfWeek,
            minute: time.minute,
            earnedToday: Math.round(Number(earned) * 100),
          });
          const got = res.json().receipt.items.map((l: { rule: string; bonusPoints: number }) => ({
            rule: l.rule,
            cents: Math.round(l.bonusPoints * 100),
          }));
          expect(got).toEqual(expected);
          const lines = await db
            .selectFrom('receipt_items')
            .innerJoin('operations', 'operations.id', 'receipt_items.accrual_id')
            .select(['receipt_items.rule', 'receipt_items.bonus_points'])
            .where('operations.operation_id', '=', res.json().operationId)
            .orderBy('receipt_items.line_no')
            .execute();
          expect(
            lines.map((l) => ({ rule: l.rule, cents: Math.round(Number(l.bonus_points) * 100) })),
          ).toEqual(expected);
        },
      ),
      { numRuns: races ? 25 : 12 },
    );
  }, 120_000);
});

describe('maxPointsPerCardPerDay under concurrency', () => {
  it('20 concurrent accruals on one card never exceed the day cap', async () => {
    await inForce(10, { maxPointsPerCardPerDay: 25 });
    const card = await createCard(db);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        pos.accrue({
          operationId: opId('cap'),
          cardNumber: card.number,
          receipt: receipt([{ sku: 'A', quantity: 1, price: 100 }]),
        }),
      ),
    );
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([201]));
    const points = answers.map((a) => a.json().points as number).sort((a, b) => b - a);
    expect(points.reduce((s, p) => s + p, 0)).toBe(25);
    expect(points.slice(0, 3)).toEqual([10, 10, 5]);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 25, held: 0 });
    // Another card is not held back by this one's cap.
    const second = await createCard(db);
    const res = await pos.accrue({
      operationId: opId(),
      cardNumber: second.number,
      receipt: receipt([{ sku: 'A', quantity: 1, price: 100 }]),
    });
    expect(res.json().points).toBe(10);
  });
});
