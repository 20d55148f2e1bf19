import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { createPosKeyCache, type PosKeyCache } from '../modules/pos-keys/pos-key-cache';
import { POS_KEY_CHANNEL } from '../modules/pos-keys/pos-keys.repository';

declare module 'fastify' {
  interface FastifyInstance {
    posKeyCache: PosKeyCache & {
      /** Starts the cross-server listener on first use (most apps, e.g. tests', never serve a till). */
      start(): void;
    };
  }
}

const RECONNECT_MS = 5000;

/**
 * The POS key cache (modules/pos-keys/pos-key-cache.ts) and, on a PostgreSQL server, its listener for
 * other servers' key changes: one connection per server doing `LISTEN pos_key_changed`. The cache is used
 * only while that connection is up (so a change elsewhere can never go unheard); when it drops, the cache
 * is off and the listener reconnects. Embedded PGlite is one server: its changes are all local.
 */
export const posKeyCachePlugin = fp(
  async (app, options: { ttlMs: number; databaseUrl?: string }) => {
    // On PostgreSQL without its URL (an app handed a pool) there is no listener, so no cache either.
    const postgres = app.databaseKind === 'postgres';
    const crossServer = postgres && options.ttlMs > 0 && !!options.databaseUrl;
    const cache = createPosKeyCache(options.ttlMs, { usable: !postgres });
    let listener: { stop(): Promise<void> } | undefined;
    app.decorate('posKeyCache', {
      ...cache,
      start() {
        if (crossServer && !listener) listener = listen(options.databaseUrl!, cache, app.log);
      },
    });
    app.addHook('onClose', async () => {
      await listener?.stop();
    });
  },
  { name: 'pos-key-cache', dependencies: ['database'] },
);

function listen(url: string, cache: PosKeyCache, log: FastifyBaseLogger) {
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const lost = (client: pg.Client, error?: Error) => {
    if (current !== client) return;
    current = undefined;
    cache.setUsable(false);
    if (error) log.warn({ err: error }, 'POS key cache off: change listener lost, reconnecting');
    client.end().catch(() => {});
    if (!stopped) timer = setTimeout(connect, RECONNECT_MS).unref();
  };

  async function connect() {
    timer = undefined;
    const client = new pg.Client({ connectionString: url });
    current = client;
    client.on('notification', (message) => cache.forget(message.payload || undefined));
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`listen ${POS_KEY_CHANNEL}`);
      if (current === client && !stopped) cache.setUsable(true);
    } catch (error) {
      lost(client, error as Error);
    }
  }

  void connect();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      cache.setUsable(false);
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
}
