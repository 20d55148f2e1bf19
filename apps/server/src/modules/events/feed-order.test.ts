import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { inTransaction, type Tx } from '../../db/transaction';
import { appendEvent } from './emit';
import { readFeed } from './events.service';

/**
 * Ids are drawn at insert, not at commit. Two transactions interleaved so that the one with the smaller
 * id commits last: a poller reading in between must not move its cursor past the id still to come. Only
 * PostgreSQL runs two transactions at once (PGlite has one connection), so this runs there.
 */
const ctx = await createTestContext({ WEBHOOK_POLL_INTERVAL_MS: '0' });
const db = ctx.database.db;

/** A transaction that runs `first`, then waits for `finish()` before it commits. */
function openTransaction(first: (trx: Tx) => Promise<void>) {
  let finish!: () => void;
  const released = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = db.transaction().execute(async (trx) => {
    await first(trx);
    started();
    await released;
  });
  return { ready, finish, done };
}

const ids = (events: { id: string }[]) => events.map((e) => e.id);

/**
 * Reads from `after` until `count` events have come. The snapshot's xmin is the whole cluster's: a write
 * transaction of another database on a shared server holds the feed back until it ends (delayed, never
 * wrong), so this waits for it, within a bound.
 */
async function readUntil(after: string | undefined, count: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const page = await readFeed(db, { after, limit: 500 });
    if (page.events.length >= count || Date.now() > deadline) return page;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(ctx.database.kind === 'postgres')(
  'the feed under interleaved transactions',
  { timeout: 150_000 },
  () => {
    it('a later commit with a smaller id is not skipped: it waits for it, then serves both', async () => {
      const start = (await readFeed(db, { limit: 500 })).events.at(-1)?.id;
      const slow = openTransaction((trx) => appendEvent(trx, 'account.created', { n: 'slow' }));
      await slow.ready;
      await inTransaction(db, (trx) => appendEvent(trx, 'account.created', { n: 'fast' }));

      // The fast one committed, but the slow one (smaller id) is still running: nothing is served yet.
      const during = await readFeed(db, { after: start, limit: 500 });
      expect(during.events).toEqual([]);
      expect(during.next).toBe(start ?? null);

      slow.finish();
      await slow.done;
      const after = await readUntil(during.next ?? undefined, 2);
      expect(after.events.map((e) => e.data.n)).toEqual(['slow', 'fast']);
      expect(Number(after.events[0]!.id)).toBeLessThan(Number(after.events[1]!.id));
    });

    it('a poller reading all along sees every event exactly once, whatever the commit order', async () => {
      let cursor = (await readFeed(db, { limit: 500 })).next ?? undefined;
      const seen: string[] = [];
      const poll = async () => {
        const page = await readFeed(db, { after: cursor, limit: 500 });
        seen.push(...ids(page.events));
        cursor = page.next ?? undefined;
      };
      const open = [];
      for (let i = 0; i < 6; i++) {
        open.push(openTransaction((trx) => appendEvent(trx, 'card.issued', { i })));
        await open[i]!.ready;
        await poll();
      }
      // Commit in reverse order (the largest id first), polling between commits.
      for (const tx of [...open].reverse()) {
        tx.finish();
        await tx.done;
        await poll();
      }
      const rest = await readUntil(cursor, 6 - seen.length);
      seen.push(...ids(rest.events));
      expect(new Set(seen).size).toBe(seen.length);
      const written = await db
        .selectFrom('events')
        .select(['id', 'data'])
        .where('type', '=', 'card.issued')
        .execute();
      expect(seen.sort()).toEqual(written.map((r) => String(r.id)).sort());
    });
  },
);
