import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isConnectionError } from './connection-errors';
import type { StatementNamer } from './prepared-statements';

interface Tracked {
  view: PostgresPoolClient;
  lost: Error | undefined;
}

/**
 * The pool as Kysely sees it, with one difference: a client whose statement failed because its connection
 * was lost goes back to the pool *as broken* (`release(error)` makes pg discard it). Without this, a
 * backend terminated mid-statement can return to the pool as idle for the moment before its socket
 * closes, and the next request would be handed a dead connection.
 */
export function discardingLostConnections(pool: pg.Pool, namer?: StatementNamer): PostgresPool {
  const tracked = new WeakMap<pg.PoolClient, Tracked>();
  return {
    async connect() {
      const client = await pool.connect();
      let entry = tracked.get(client);
      if (!entry) {
        const created: Tracked = {
          lost: undefined,
          view: {
            query: ((...args: Parameters<pg.PoolClient['query']>) => {
              // Kysely calls query(text, values); a statement run often goes as a named one (prepared-statements.ts).
              const [text, values] = args as unknown[];
              const name =
                namer && typeof text === 'string'
                  ? namer.nameFor(text, Array.isArray(values) ? values.length : 0)
                  : undefined;
              const call = name ? [{ name, text, values }] : args;
              const result = (client.query as (...a: unknown[]) => unknown)(...call);
              if (result instanceof Promise) {
                return result.catch((error: unknown) => {
                  if (isConnectionError(error)) created.lost = error as Error;
                  throw error;
                });
              }
              return result;
            }) as PostgresPoolClient['query'],
            release: () => {
              const lost = created.lost;
              created.lost = undefined;
              client.release(lost);
            },
          },
        };
        entry = created;
        tracked.set(client, entry);
      }
      return entry.view;
    },
    end: () => pool.end(),
  };
}
