import type { EventFeed } from '@loyalty/contracts';
import type { Executor } from '../../db/executor';
import { type FeedFilter, listFeed, toEvent } from './events.repository';

/**
 * A page of the feed; `next` is the last event's id, or the same cursor again when nothing is new yet. A page
 * filtered by type that is not full read every event up to `scannedTo` (matching or not), so it goes on from
 * there: a poller of a rare type gets empty pages that move on, not the same long read on every poll.
 */
export async function readFeed(db: Executor, filter: FeedFilter): Promise<EventFeed> {
  const page = await listFeed(db, filter);
  const events = page.events.map(toEvent);
  const readTo = events.length < filter.limit ? page.scannedTo : null;
  return { events, next: readTo ?? events.at(-1)?.id ?? filter.after ?? null };
}
