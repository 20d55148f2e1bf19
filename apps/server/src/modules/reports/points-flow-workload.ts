import fc from 'fast-check';
import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';

/**
 * Ledger-true random workloads for the points-flow property test: every command that moves a balance
 * writes its operation and the balance in the same transaction (as modules/ledger does), so Σ balances is
 * always Σ completed flows; others write operations that move nothing (holds, refusals), change an
 * operation's day or void one. Over five UTC days around a month's end, instants on the day edges.
 */
export const DAY = 86_400_000;
export const BASE = Date.UTC(2025, 2, 29); // five days: 29 March … 2 April
export const DAYS = 5;
export const ACCOUNTS = 3;
export const POS_KEYS = 2;

const instant = fc
  .tuple(fc.integer({ min: 0, max: DAYS - 1 }), fc.constantFrom(0, 1, 43_200_000, DAY - 1))
  .map(([day, ms]) => new Date(BASE + day * DAY + ms).toISOString());
const cents = fc.integer({ min: 1, max: 20_000 });
const account = fc.nat({ max: ACCOUNTS - 1 });
const pos = fc.integer({ min: -1, max: POS_KEYS - 1 }); // -1: written in the console
const pick = fc.nat({ max: 1000 });

export const command = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('credit' as const), account, pos, at: instant, cents }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('debit' as const),
      type: fc.constantFrom('redemption', 'return', 'adjustment', 'expiry'),
      account,
      pos,
      at: instant,
      cents,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('noise' as const), account, pos, at: instant, cents }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), op: pick, at: instant }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), op: pick }) },
);
export type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

export interface World {
  accounts: string[];
  posKeys: string[];
  /** Operations written, for the commands that change one. */
  ops: string[];
}

async function post(
  trx: Tx,
  w: World,
  c: { account: number; pos: number; at: string },
  type: string,
  status: string,
  points: number,
) {
  const row = await trx
    .insertInto('operations')
    .values({
      type: type as 'accrual',
      status: status as 'completed',
      points: (points / 100).toFixed(2),
      account_id: w.accounts[c.account]!,
      pos_id: c.pos < 0 ? null : w.posKeys[c.pos]!,
      created_at: c.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  w.ops.push(row.id);
  if (status === 'completed') {
    await sql`update accounts set balance = balance + ${(points / 100).toFixed(2)}::numeric
      where id = ${w.accounts[c.account]!}::uuid`.execute(trx);
  }
}

async function balanceCents(trx: Tx, accountId: string): Promise<number> {
  const { rows } = await sql<{
    b: string;
  }>`select balance::text as b from accounts where id = ${accountId}::uuid`.execute(trx);
  return Math.round(Number(rows[0]!.b) * 100);
}

export async function apply(trx: Tx, w: World, c: Command): Promise<void> {
  switch (c.kind) {
    case 'credit':
      return post(trx, w, c, c.pos < 0 ? 'adjustment' : 'accrual', 'completed', c.cents);
    case 'debit': {
      const taken = Math.min(c.cents, await balanceCents(trx, w.accounts[c.account]!));
      if (taken === 0) return;
      // A return is a POS's adjustment; an adjustment without a POS is a console debit.
      const at = {
        ...c,
        pos: c.type === 'return' ? Math.max(c.pos, 0) : c.type === 'adjustment' ? -1 : c.pos,
      };
      return post(trx, w, at, c.type === 'redemption' ? 'redemption' : 'adjustment', 'completed', -taken);
    }
    case 'noise':
      await post(trx, w, c, 'hold', 'voided', -c.cents);
      return post(trx, w, c, 'accrual', 'failed', 0);
    case 'move': {
      const id = w.ops[c.op % Math.max(w.ops.length, 1)];
      if (id) await trx.updateTable('operations').set({ created_at: c.at }).where('id', '=', id).execute();
      return;
    }
    case 'void': {
      // Voiding a completed credit takes its points back, so only when the balance still has them.
      const id = w.ops[c.op % Math.max(w.ops.length, 1)];
      if (!id) return;
      const { rows } = await sql<{ account_id: string; points: string }>`
        select account_id, points::text from operations where id = ${id}::uuid and status = 'completed'
        for update`.execute(trx);
      const op = rows[0];
      if (!op) return;
      const points = Math.round(Number(op.points) * 100);
      if (points > (await balanceCents(trx, op.account_id))) return;
      await trx.updateTable('operations').set({ status: 'voided' }).where('id', '=', id).execute();
      await sql`update accounts set balance = balance - ${op.points}::numeric where id = ${op.account_id}::uuid`.execute(
        trx,
      );
    }
  }
}
