import fc from 'fast-check';
import type { OperationStatus, OperationType } from '../../db/schema';
import type { Tx } from '../../db/transaction';

/**
 * Random workloads for the rollup property test: inserts, status/point/time/account changes and deletes
 * of operations, inserts/date changes/deletes of cards, and balance changes, over a few accounts and
 * three days, clustered on bucket edges so accounts often share an hour and a day.
 */
export const HOUR = 3_600_000;
export const BASE = Date.UTC(2025, 2, 10); // a Monday, 00:00 UTC
export const HOURS = 72;
export const ACCOUNTS = 4;

/**
 * Instants clustered on bucket edges (:00:00.000, :00:00.001, :29:59.999, :59:59.999) and mostly in a
 * few hours around midnight, so accounts often share an hour and a day.
 */
const hour = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 23, 24) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: HOURS - 1 }) },
);
const instant = fc
  .tuple(hour, fc.constantFrom(0, 1, 1_799_999, 3_599_999))
  .map(([hour, ms]) => new Date(BASE + hour * HOUR + ms).toISOString());
const points = fc.integer({ min: -50_000, max: 50_000 }).map((cents) => cents / 100);
const status = fc.constantFrom<OperationStatus>(
  'completed',
  'completed',
  'completed',
  'completed',
  'active',
  'pending',
  'failed',
  'applied',
  'voided',
);
// An expiry counts in operations and volume but makes no account active (migration 026).
const type = fc.constantFrom<OperationType>('accrual', 'redemption', 'hold', 'adjustment', 'expiry');
const pick = fc.nat({ max: 1000 });
const account = fc.integer({ min: -1, max: ACCOUNTS - 1 }); // -1: an operation without an account

export const command = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('insertOp' as const),
      account,
      at: instant,
      points,
      status,
      type,
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('setStatus' as const), op: pick, status }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setPoints' as const), op: pick, points }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('moveOp' as const), op: pick, at: instant, account }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteOp' as const), op: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('insertCard' as const),
      account: fc.nat({ max: ACCOUNTS - 1 }),
      createdAt: instant,
      issuedAt: fc.option(instant),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('setIssuedAt' as const),
      card: pick,
      issuedAt: fc.option(instant),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteCard' as const), card: pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('setBalance' as const),
      account: fc.nat({ max: ACCOUNTS - 1 }),
      balance: fc.integer({ min: 0, max: 10_000_000 }),
      heldPercent: fc.integer({ min: 0, max: 100 }),
    }),
  },
);
export type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

export interface World {
  accounts: string[];
  ops: string[];
  cards: string[];
}

let cardNumbers = 0;
const nth = <T>(list: T[], index: number) => (list.length ? list[index % list.length] : undefined);

export async function apply(trx: Tx, world: World, c: Command): Promise<void> {
  const accountId = (i: number) => (i < 0 ? null : world.accounts[i]!);
  switch (c.kind) {
    case 'insertOp': {
      const row = await trx
        .insertInto('operations')
        .values({
          type: c.type,
          status: c.status,
          points: c.points,
          account_id: accountId(c.account),
          created_at: c.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      world.ops.push(row.id);
      return;
    }
    case 'setStatus':
    case 'setPoints':
    case 'moveOp': {
      const id = nth(world.ops, c.op);
      if (!id) return;
      const set =
        c.kind === 'setStatus'
          ? { status: c.status }
          : c.kind === 'setPoints'
            ? { points: c.points }
            : { created_at: c.at, account_id: accountId(c.account) };
      await trx.updateTable('operations').set(set).where('id', '=', id).execute();
      return;
    }
    case 'deleteOp': {
      const id = nth(world.ops, c.op);
      if (!id) return;
      await trx.deleteFrom('operations').where('id', '=', id).execute();
      world.ops = world.ops.filter((op) => op !== id);
      return;
    }
    case 'insertCard': {
      const row = await trx
        .insertInto('cards')
        .values({
          number: String(++cardNumbers).padStart(16, '0'),
          account_id: world.accounts[c.account]!,
          status: 'active',
          created_at: c.createdAt,
          issued_at: c.issuedAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      world.cards.push(row.id);
      return;
    }
    case 'setIssuedAt': {
      const id = nth(world.cards, c.card);
      if (id) await trx.updateTable('cards').set({ issued_at: c.issuedAt }).where('id', '=', id).execute();
      return;
    }
    case 'deleteCard': {
      const id = nth(world.cards, c.card);
      if (!id) return;
      await trx.deleteFrom('cards').where('id', '=', id).execute();
      world.cards = world.cards.filter((card) => card !== id);
      return;
    }
    case 'setBalance': {
      const held = Math.floor((c.balance * c.heldPercent) / 100);
      await trx
        .updateTable('accounts')
        .set({ balance: c.balance / 100, held_balance: held / 100 })
        .where('id', '=', world.accounts[c.account]!)
        .execute();
      return;
    }
  }
}
