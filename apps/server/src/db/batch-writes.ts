import { AppError } from '../lib/app-error';
import type { Tx } from './transaction';

/** What one write of a batch came to: what its `work` returned, or its refusal. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: AppError };

/**
 * A kind of write that a key's batch may run set-based (`modules/ledger/set-batches.ts` `inGroupCommit`):
 * its writes in the batch, in order, in one read and one persist statement. Per write its outcome, or null
 * when that write must run its own `work` instead (after the set's, in the same transaction).
 */
export interface SetKind<I> {
  write: (trx: Tx, inputs: readonly I[]) => Promise<Array<Outcome | null>>;
}

/** A write's set-based form, given to `posTransaction` beside its `work`. */
export interface SetWrite<I> {
  kind: SetKind<I>;
  input: I;
}

/** A queued write of group commit: its lone `work`, and its set-based form when it has one. */
export interface Queued {
  work: (trx: Tx) => Promise<unknown>;
  set?: SetWrite<unknown>;
}

/**
 * A batch's writes in its transaction, one outcome each in the batch's order. The writes of a set-based kind
 * run together, at the place of the first of them (the batch's writes all arrived before it started, so any
 * order is one they could have come in); every other write, and one its kind hands back, runs its `work`.
 */
export async function writeAll(trx: Tx, writes: readonly Queued[]): Promise<Outcome[]> {
  const done: Outcome[] = new Array(writes.length);
  const runWork = async (i: number) => {
    done[i] = await outcomeOf(() => writes[i]!.work(trx));
  };
  for (const group of inKinds(writes)) {
    if (!group.kind) {
      await runWork(group.indexes[0]!);
      continue;
    }
    const outcomes = await group.kind.write(
      trx,
      group.indexes.map((i) => writes[i]!.set!.input),
    );
    for (const [j, i] of group.indexes.entries()) {
      const outcome = outcomes[j];
      if (outcome) done[i] = outcome;
      else await runWork(i);
    }
  }
  return done;
}

/** The batch's writes as groups: each set-based kind's writes (two or more) together, every other write alone. */
function inKinds(writes: readonly Queued[]): Array<{ kind?: SetKind<unknown>; indexes: number[] }> {
  const counts = new Map<SetKind<unknown>, number>();
  for (const w of writes) if (w.set) counts.set(w.set.kind, (counts.get(w.set.kind) ?? 0) + 1);
  const groups: Array<{ kind?: SetKind<unknown>; indexes: number[] }> = [];
  const ofKind = new Map<SetKind<unknown>, number[]>();
  for (const [i, w] of writes.entries()) {
    const kind = w.set?.kind;
    const indexes = kind && ofKind.get(kind);
    if (indexes) indexes.push(i);
    else if (kind && counts.get(kind)! > 1) {
      ofKind.set(kind, [i]);
      groups.push({ kind, indexes: ofKind.get(kind)! });
    } else groups.push({ indexes: [i] });
  }
  return groups;
}

/** What `write` returned, or its refusal (an `AppError`); any other error is thrown (it splits the batch). */
async function outcomeOf(write: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await write() };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { ok: false, error };
  }
}
