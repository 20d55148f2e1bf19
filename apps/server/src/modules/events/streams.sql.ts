import { sql } from 'kysely';

/**
 * Event `e` is one the endpoint `w` still has to get from its stream: of a type it takes, after the stream's
 * position. The backlog counts these; retention keeps them (`pruneEvents`).
 */
export const streamHasNotReached = sql<boolean>`(e.type = any(w.event_types) and (e.xid, e.id) > (w.stream_xid, w.stream_id))`;
