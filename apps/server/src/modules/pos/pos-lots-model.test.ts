import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { ledgerIsSound, verifyLedger } from '../ledger/verify-ledger';
import { createCard, createPosKey, createRuleset, type Till, till } from './pos.fixtures';

/**
 * Points lots against a model (PROGRAMME-API §1), one step at a time: accruals (some from offline tills
 * with `purchasedAt`), holds, full and partial captures, releases, whole returns (also of points already
 * spent), expiry runs, changes of the pending and expiry periods, and time passing (the run's lots are
 * moved back in time, as if days went by). The model keeps every lot; after every step the server's
 * balance, held, pending and available points, next expiry and lots equal the model's, and the ledger
 * (with the lots' proof) verifies.
 *
 * Times are whole hours relative to now. A lot made at a step has its real time = its model time + the
 * moment it was made, so the server's order (expiry, then earned, then id) is the model's order by value
 * with ties broken by which lot was made first (`seq`); an offline purchase is d days and 1 hour old, so
 * its dates never tie with a lot made "now".
 */
const RUNS = Number(process.env.POS_LOTS_MODEL_RUNS ?? 20);
const SEED = Number(process.env.POS_LOTS_MODEL_SEED ?? 20261123);
const ctx = await createTestContext();
const db = ctx.database.db;
const ACCOUNTS = 2;
const HOUR = 3_600_000;

interface MLot {
  seq: number;
  credit: string;
  earned: number;
  available: number;
  expires: number | null;
  points: number;
  remaining: number;
  expired: boolean;
}
interface MAccount {
  number: string;
  accountId: string;
  balance: number;
  held: number;
  lots: MLot[];
}
interface MHold {
  holdId: string;
  account: number;
  cents: number;
  open: boolean;
}

type Action =
  | { t: 'accrue'; account: number; cents: number; daysAgo: number | null }
  | { t: 'hold'; account: number; cents: number }
  | { t: 'capture'; hold: number; percent: number | null }
  | { t: 'release'; hold: number }
  | { t: 'return'; accrual: number }
  | { t: 'expire' }
  | { t: 'pass'; hours: number }
  | { t: 'settings'; pending: number | null; expiry: number | null };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('accrue' as const),
      account: fc.nat(ACCOUNTS - 1),
      cents: fc.integer({ min: 1, max: 5_000 }),
      daysAgo: fc.option(fc.integer({ min: 0, max: 28 }), { freq: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('hold' as const),
      account: fc.nat(ACCOUNTS - 1),
      cents: fc.integer({ min: 1, max: 4_000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('capture' as const),
      hold: fc.nat(50),
      percent: fc.option(fc.integer({ min: 1, max: 100 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('release' as const), hold: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('return' as const), accrual: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.constant({ t: 'expire' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('pass' as const),
      hours: fc.oneof(
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 1, max: 40 }).map((d) => d * 24),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('settings' as const),
      pending: fc.constantFrom(null, 0, 1, 3),
      expiry: fc.constantFrom(null, 0, 2, 10, 30),
    }),
  },
);

const pendingOf = (a: MAccount) => a.lots.reduce((s, l) => s + (l.available > 0 ? l.remaining : 0), 0);
const availableOf = (a: MAccount) => Math.max(0, a.balance - a.held - pendingOf(a));
/** A capture's order: available before pending, soonest expiry (never last), then older, then made first. */
const captureKey = (l: MLot) => [
  l.available > 0 ? 1 : 0,
  l.expires ?? Infinity,
  l.expires === null ? l.earned : 0,
  l.seq,
];
function byKey(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** Takes `cents` from the lots in order, as the ledger does. */
function consume(lots: MLot[], cents: number, expired = false): void {
  let need = cents;
  for (const lot of lots) {
    if (need === 0) break;
    const take = Math.min(lot.remaining, need);
    if (take === 0) continue;
    lot.remaining -= take;
    if (expired) lot.expired = true;
    need -= take;
  }
  expect(need, 'the model found the lots to take from').toBe(0);
}

let tillOf: Till;
let run = 0;
let stats = { runs: 0, steps: 0 };

async function runScenario(actions: Action[]) {
  const r = run++;
  let seq = 0;
  let nextId = 0;
  const id = () => `lm${r}-${nextId++}`;
  const admin = bearer(ctx.tokens.ADMIN);
  // What earlier runs left due expires now, so this run's expiry answers count this run's accounts only.
  await ctx.app.inject({ method: 'POST', url: '/api/v1/admin/points/expire', headers: admin });
  let periods = { pending: null as number | null, expiry: null as number | null };
  await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/settings',
    headers: admin,
    payload: { points: { pending_days: null, expiry_days: null } },
  });
  const accounts: MAccount[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const card = await createCard(db);
    accounts.push({ number: card.number, accountId: card.accountId, balance: 0, held: 0, lots: [] });
  }
  const holds: MHold[] = [];
  const accruals: Array<{ operationId: string; account: number; cents: number; returned: boolean }> = [];

  const perform = async (a: Action) => {
    switch (a.t) {
      case 'accrue': {
        const account = accounts[a.account]!;
        const operationId = id();
        const offset = a.daysAgo === null ? 0 : -(a.daysAgo * 24 + 1);
        const receipt: Record<string, unknown> = {
          receiptId: operationId,
          // 10 % of cents × 0.10 is exactly `cents` hundredths of a point.
          items: [{ sku: 'A', quantity: 1, price: (a.cents * 10) / 100 }],
        };
        if (a.daysAgo !== null) receipt.purchasedAt = new Date(Date.now() + offset * HOUR).toISOString();
        const res = await tillOf.accrue({ operationId, cardNumber: account.number, receipt });
        expect(res.statusCode, res.body).toBe(201);
        expect(Math.round(res.json().points * 100)).toBe(a.cents);
        const available = offset + (periods.pending ?? 0) * 24;
        account.lots.push({
          seq: seq++,
          credit: operationId,
          earned: offset,
          available,
          expires: periods.expiry === null ? null : available + periods.expiry * 24,
          points: a.cents,
          remaining: a.cents,
          expired: false,
        });
        account.balance += a.cents;
        accruals.push({ operationId, account: a.account, cents: a.cents, returned: false });
        return;
      }
      case 'hold': {
        const account = accounts[a.account]!;
        const res = await tillOf.hold({
          operationId: id(),
          cardNumber: account.number,
          points: a.cents / 100,
        });
        if (a.cents > availableOf(account)) {
          expect(res.statusCode, res.body).toBe(409);
          expect(res.json().code).toBe('INSUFFICIENT_FUNDS');
          return;
        }
        expect(res.statusCode, res.body).toBe(201);
        expect(Math.round(res.json().availableBalance * 100)).toBe(availableOf(account) - a.cents);
        account.held += a.cents;
        holds.push({ holdId: res.json().holdId, account: a.account, cents: a.cents, open: true });
        return;
      }
      case 'capture':
      case 'release': {
        const open = holds.filter((h) => h.open);
        const hold = open[a.hold % Math.max(open.length, 1)];
        if (!hold) return;
        const account = accounts[hold.account]!;
        if (a.t === 'release') {
          const res = await tillOf.release(hold.holdId, { operationId: id() });
          expect(res.statusCode, res.body).toBe(200);
          account.held -= hold.cents;
          hold.open = false;
          expect(Math.round(res.json().availableBalance * 100)).toBe(availableOf(account));
          return;
        }
        const cents =
          a.percent === null ? hold.cents : Math.max(1, Math.floor((hold.cents * a.percent) / 100));
        const res = await tillOf.capture(hold.holdId, {
          operationId: id(),
          ...(a.percent === null ? {} : { points: cents / 100 }),
        });
        expect(res.statusCode, res.body).toBe(200);
        account.held -= hold.cents;
        account.balance -= cents;
        hold.open = false;
        consume(
          [...account.lots].sort((x, y) => byKey(captureKey(x), captureKey(y))),
          cents,
        );
        return;
      }
      case 'return': {
        const accrual = accruals[a.accrual % accruals.length];
        if (!accrual) return;
        const account = accounts[accrual.account]!;
        const res = await tillOf.returns({ operationId: id(), originalOperationId: accrual.operationId });
        if (accrual.returned) {
          expect(res.statusCode, res.body).toBe(409);
          expect(res.json().code).toBe('RETURN_NOT_ALLOWED');
          return;
        }
        expect(res.statusCode, res.body).toBe(201);
        const own = account.lots.find((l) => l.credit === accrual.operationId)!;
        const ownPending = own.available > 0 ? own.remaining : 0;
        const taken = Math.min(accrual.cents, availableOf(account) + ownPending);
        expect(-Math.round(res.json().points * 100) || 0).toBe(taken);
        const order = [
          own,
          ...account.lots.filter((l) => l !== own).sort((x, y) => byKey(captureKey(x), captureKey(y))),
        ];
        consume(order, taken);
        account.balance -= taken;
        accrual.returned = true;
        return;
      }
      case 'expire': {
        let count = 0;
        let cents = 0;
        for (const account of accounts) {
          const room = availableOf(account);
          const due = account.lots
            .filter((l) => l.remaining > 0 && l.expires !== null && l.expires <= 0)
            .sort((x, y) => byKey([x.expires!, x.seq], [y.expires!, y.seq]));
          const total = Math.min(
            room,
            due.reduce((s, l) => s + l.remaining, 0),
          );
          if (total === 0) continue;
          consume(due, total, true);
          account.balance -= total;
          count++;
          cents += total;
        }
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/admin/points/expire',
          headers: admin,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ accounts: count, points: cents / 100 });
        return;
      }
      case 'pass': {
        const ids = accounts.map((x) => x.accountId);
        await sql`update lots set earned_at = earned_at - make_interval(hours => ${a.hours}),
            available_at = available_at - make_interval(hours => ${a.hours}),
            expires_at = expires_at - make_interval(hours => ${a.hours})
          where account_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`.execute(
          db,
        );
        for (const account of accounts)
          for (const lot of account.lots) {
            lot.earned -= a.hours;
            lot.available -= a.hours;
            if (lot.expires !== null) lot.expires -= a.hours;
          }
        return;
      }
      case 'settings': {
        periods = { pending: a.pending, expiry: a.expiry };
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/settings',
          headers: admin,
          payload: { points: { pending_days: a.pending, expiry_days: a.expiry } },
        });
        expect(res.statusCode, res.body).toBe(200);
        return;
      }
    }
  };

  for (const [step, a] of actions.entries()) {
    await perform(a);
    const where = `run ${r} step ${step} ${JSON.stringify(a)}`;
    for (const account of accounts) {
      const card = (await tillOf.card(account.number)).json();
      const next = account.lots
        .filter((l) => l.remaining > 0 && l.expires !== null)
        .sort((x, y) => byKey([x.expires!, x.seq], [y.expires!, y.seq]))[0];
      expect(
        {
          balance: Math.round(card.balance * 100),
          held: Math.round(card.heldBalance * 100),
          pending: Math.round(card.pendingBalance * 100),
          available: Math.round(card.availableBalance * 100),
          nextExpiry: card.nextExpiry === null ? null : Math.round(card.nextExpiry.points * 100),
        },
        where,
      ).toEqual({
        balance: account.balance,
        held: account.held,
        pending: pendingOf(account),
        available: availableOf(account),
        nextExpiry: next ? next.remaining : null,
      });
      const lots = await ctx.app.inject({
        url: `/api/v1/accounts/${account.accountId}/lots?size=200`,
        headers: bearer(ctx.tokens.VIEWER),
      });
      const shown = (lots.json().content as Array<{ points: number; remaining: number; status: string }>)
        .map((l) => `${Math.round(l.points * 100)}/${Math.round(l.remaining * 100)}/${l.status}`)
        .sort();
      const modelled = account.lots
        .map(
          (l) => `${l.points}/${l.remaining}/${l.remaining > 0 ? 'open' : l.expired ? 'expired' : 'spent'}`,
        )
        .sort();
      expect(shown, where).toEqual(modelled);
    }
    const report = await verifyLedger(db);
    expect(ledgerIsSound(report), `${where} ${JSON.stringify(report)}`).toBe(true);
  }
  stats = { runs: stats.runs + 1, steps: stats.steps + actions.length };
}

describe('points lots model', () => {
  it(
    `balance, held, pending, available and the lots equal the model's after every step, ${RUNS} runs`,
    async () => {
      tillOf = till(ctx, (await createPosKey(ctx)).apiKey);
      await createRuleset(db, { version: 1, percent: 10 });
      await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), runScenario), {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: true,
      });
      console.log(`points lots model: ${stats.runs} runs, ${stats.steps} steps (${ctx.database.kind})`);
      expect(stats.runs).toBe(RUNS);
    },
    120_000 + RUNS * 10_000,
  );
});
