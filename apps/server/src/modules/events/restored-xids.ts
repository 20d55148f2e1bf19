import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { inTransaction } from '../../db/transaction';

/** What `rebaseRestoredEvents` moved: rows whose transaction ids came from another cluster. */
export interface RebasedEvents {
  events: number;
  endpoints: number;
}

/**
 * Whether any row is stamped with a transaction id this cluster has not reached yet (`xmax`: the next id it
 * will give). An `exists` on events_feed_idx: every start pays one empty index probe, not a count.
 */
async function fromTheFuture(db: Executor): Promise<boolean> {
  const result = await sql<{ found: boolean }>`
    select exists (select 1 from events where xid >= pg_snapshot_xmax(pg_current_snapshot()))
      or exists (select 1 from webhook_endpoints where stream_xid >= pg_snapshot_xmax(pg_current_snapshot()))
      as found`.execute(db);
  return result.rows[0]!.found;
}

/**
 * The feed and the endpoints' streams order events by their transaction id (README "The feed"). Those ids
 * are the cluster's: a logical dump restored into a fresh cluster starts them low again, below every
 * restored event's, and then new events sort before the feed's cursors and the streams' positions while the
 * restored tail waits, unserved, until the ids catch up. Only such a restore (or pg_resetwal) can put an id
 * above the cluster's next one, so that is the test, and it never fires otherwise.
 *
 * The mend, in one transaction that holds writers of events off: every event goes to transaction id 1, so
 * the restored rows come before every new transaction, in order of id (the feed's order except between
 * transactions that overlapped). Each endpoint's stream moves to just before the first event it had not
 * passed, by id: an event of overlapping transactions it had already passed may be sent again (at least
 * once, receivers dedupe by webhook-id), none is skipped. Runs when a server starts; idempotent, and a
 * second server starting at once waits on the lock and then finds nothing to do.
 */
export async function rebaseRestoredEvents(db: Executor): Promise<RebasedEvents | null> {
  if (!(await fromTheFuture(db))) return null;
  return inTransaction(db, async (trx) => {
    await sql`lock table events, webhook_endpoints in share row exclusive mode`.execute(trx);
    if (!(await fromTheFuture(trx))) return null;
    const endpoints = await sql`
      update webhook_endpoints w
      set stream_xid = '1'::xid8,
        stream_id = coalesce(
          (select min(e.id) - 1 from events e where (e.xid, e.id) > (w.stream_xid, w.stream_id)),
          (select max(e.id) from events e),
          0)`.execute(trx);
    const events = await sql`update events set xid = '1'::xid8 where xid <> '1'::xid8`.execute(trx);
    return {
      events: Number(events.numAffectedRows ?? 0),
      endpoints: Number(endpoints.numAffectedRows ?? 0),
    };
  });
}
