import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helper';
import { AppError } from '../lib/app-error';
import { type GroupCommitOptions, groupCommit, type SetKind, type SetWrite } from './group-commit';
import type { Tx } from './transaction';

const database = await openTestDatabase();
afterAll(() => database.close());
const { db } = database;
await sql`create table group_commit_probe (k text primary key, tx text not null)`.execute(db);

/** A promise the first write waits on, so that the writes after it queue behind the only lane. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A write that answers the id of the transaction it ran in. */
const write = (k: string) => async (trx: Tx) => {
  const result = await sql<{ tx: string }>`
    insert into group_commit_probe values (${k}, txid_current()::text) returning tx`.execute(trx);
  return result.rows[0]!.tx;
};

const keys = async (prefix: string) =>
  (
    await sql<{
      k: string;
    }>`select k from group_commit_probe where k like ${`${prefix}%`} order by k`.execute(db)
  ).rows.map((r) => r.k);

/** One lane per key: a first write of key k held at a gate, then `works` of k queued behind it. */
async function behindOneLane(
  works: Array<(trx: Tx) => Promise<string>>,
  sets: Array<SetWrite<string> | undefined> = [],
) {
  const batches: Array<{ size: number; outcome: string }> = [];
  const options: GroupCommitOptions = {
    lanes: 1,
    maxBatch: 16,
    onBatch: (size, outcome) => batches.push({ size, outcome }),
  };
  const commit = groupCommit(db, options);
  const held = gate();
  const first = commit.run('k', async (trx) => {
    await held.opened;
    return (await sql<{ tx: string }>`select txid_current()::text as tx`.execute(trx)).rows[0]!.tx;
  });
  const queued = works.map((work, i) => commit.run('k', work, sets[i]));
  expect(commit.queued()).toBe(works.length);
  held.open();
  const firstTx = await first;
  return { firstTx, results: await Promise.allSettled(queued), batches };
}

const value = (result: PromiseSettledResult<string>) =>
  result.status === 'fulfilled' ? result.value : undefined;

describe('group commit', () => {
  it('runs the writes that queued behind a busy lane in one transaction, the lone one in its own', async () => {
    const { firstTx, results, batches } = await behindOneLane([write('a1'), write('a2'), write('a3')]);
    const txs = results.map(value);
    expect(new Set(txs).size).toBe(1);
    expect(txs[0]).toBeDefined();
    expect(txs[0]).not.toBe(firstTx);
    expect(batches).toEqual([{ size: 3, outcome: 'committed' }]);
    expect(await keys('a')).toEqual(['a1', 'a2', 'a3']);
  });

  it('answers a refusal to its write alone: the others of the batch commit together', async () => {
    const refused = async (trx: Tx) => {
      await sql`select 1`.execute(trx);
      throw new AppError('CARD_NOT_FOUND');
    };
    const { results, batches } = await behindOneLane([write('b1'), refused, write('b3')]);
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: 'CARD_NOT_FOUND' } });
    expect(value(results[0]!)).toBeDefined();
    expect(value(results[0]!)).toBe(value(results[2]!));
    expect(batches).toEqual([{ size: 3, outcome: 'committed' }]);
    expect(await keys('b')).toEqual(['b1', 'b3']);
  });

  it('splits a batch whose statement failed: each write runs again alone, only the failing one fails', async () => {
    const { results, batches } = await behindOneLane([write('c1'), write('c2'), write('c2'), write('c4')]);
    expect(batches).toEqual([{ size: 4, outcome: 'split' }]);
    // The two writes of c2 meet on its key, in transactions of their own: one commits, the other fails.
    const c2 = [results[1]!, results[2]!];
    expect(c2.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(c2.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: '23505' } });
    const committed = results.map(value).filter((tx) => tx !== undefined);
    expect(committed).toHaveLength(3);
    expect(new Set(committed).size).toBe(3);
    expect(await keys('c')).toEqual(['c1', 'c2', 'c4']);
  });

  it('takes at most maxBatch writes per transaction', async () => {
    const commit = groupCommit(db, { lanes: 1, maxBatch: 2 });
    const held = gate();
    const first = commit.run('k', async () => held.opened);
    const queued = ['d1', 'd2', 'd3', 'd4', 'd5'].map((k) => commit.run('k', write(k)));
    held.open();
    await first;
    const txs = await Promise.all(queued);
    expect([txs[0] === txs[1], txs[2] === txs[3], txs[1] === txs[2], txs[3] === txs[4]]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('runs two lanes of one key at once, and then batches what queued behind both', async () => {
    const batches: number[] = [];
    const commit = groupCommit(db, { lanes: 2, maxBatch: 16, onBatch: (size) => batches.push(size) });
    const held = gate();
    const firsts = ['e1', 'e2'].map((k) =>
      commit.run('k', async (trx) => {
        await held.opened;
        return write(k)(trx);
      }),
    );
    const queued = ['e3', 'e4', 'e5'].map((k) => commit.run('k', write(k)));
    expect(commit.queued()).toBe(3);
    held.open();
    await Promise.all([...firsts, ...queued]);
    expect(batches).toEqual([3]);
  });

  // PGlite is one connection: a second transaction cannot begin while the gate holds the first.
  it.runIf(database.kind === 'postgres')('never makes a write of another key wait', async () => {
    const commit = groupCommit(db, { lanes: 1, maxBatch: 16 });
    const held = gate();
    const first = commit.run('k', async (trx) => {
      await held.opened;
      return write('f1')(trx);
    });
    await commit.run('other', write('f2'));
    // f2 committed while f1's transaction still waits at its gate: it never queued behind it.
    expect(await keys('f')).toEqual(['f2']);
    expect(commit.queued()).toBe(0);
    held.open();
    await first;
    expect(await keys('f')).toEqual(['f1', 'f2']);
  });

  it("runs a set-based kind's writes together at the first one's place; one it hands back runs its own work", async () => {
    const calls: string[][] = [];
    // Inserts its keys in one statement; a key ending in "x" it cannot decide: that write runs its work.
    const kind: SetKind<string> = {
      write: async (trx, ks) => {
        calls.push([...ks]);
        const mine = ks.filter((k) => !k.endsWith('x'));
        const result = await sql<{ k: string; tx: string }>`
          insert into group_commit_probe (k, tx) select u.k, txid_current()::text from unnest(${mine}::text[]) as u(k)
          returning k, tx`.execute(trx);
        const tx = new Map(result.rows.map((r) => [r.k, r.tx]));
        return ks.map((k) => (tx.has(k) ? { ok: true, value: `set ${tx.get(k)}` } : null));
      },
    };
    const setOf = (k: string): SetWrite<string> => ({ kind, input: k });
    const { results, batches } = await behindOneLane(
      [write('s1'), write('s2'), write('s3'), write('s4x'), write('s5')],
      [undefined, setOf('s2'), undefined, setOf('s4x'), setOf('s5')],
    );
    expect(batches).toEqual([{ size: 5, outcome: 'committed' }]);
    expect(calls).toEqual([['s2', 's4x', 's5']]);
    const [tx] = results.map(value);
    // s2 and s5 answered by the set's statement, the others (s4x handed back) by their work; one transaction.
    expect(results.map(value)).toEqual([tx, `set ${tx}`, tx, tx, `set ${tx}`]);
    expect(await keys('s')).toEqual(['s1', 's2', 's3', 's4x', 's5']);
  });

  it('runs a lone write of a set-based kind by its own work', async () => {
    const kind: SetKind<string> = {
      write: () => {
        throw new Error('a lone write is not a set');
      },
    };
    const { results, batches } = await behindOneLane(
      [write('t1'), write('t2')],
      [undefined, { kind, input: 't2' }],
    );
    expect(batches).toEqual([{ size: 2, outcome: 'committed' }]);
    expect(new Set(results.map(value)).size).toBe(1);
    expect(await keys('t')).toEqual(['t1', 't2']);
  });
});
