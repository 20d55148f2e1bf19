import type { EventFeed } from '@loyalty/contracts';
import type { Executor } from '../../db/executor';
import { type FeedFilter, listFeed, toEvent } from './events.repository';

/** A page of the feed; `next` is the last event's id, or the same cursor again when nothing is new yet. */
export async function readFeed(db: Executor, filter: FeedFilter): Promise<EventFeed> {
  const events = (await listFeed(db, filter)).map(toEvent);
  return { events, next: events.at(-1)?.id ?? filter.after ?? null };
}
