import type { PosIdentity } from './pos-keys.repository';

/**
 * Authenticated POS keys remembered for a few seconds per server (issue 13): without it every POS call
 * started with a round trip to find its key. A key's deactivation must still stop it at once everywhere:
 * - on this server, `forget` drops it when the status changes (the admin route calls it after commit);
 * - on the others, the change sends `pos_key_changed` (NOTIFY, at commit) and each server's listener
 *   (plugins/pos-key-cache.ts) calls `forget`; while a server has no working listener its cache is off;
 * - a read that raced a change (found the key active, answered after the change) is not remembered: every
 *   `forget` starts a new generation, and `remember` keeps only what was read in the current one.
 * Only found keys are remembered, so an activation works at once. The TTL bounds anything missed (a
 * notification lost with its connection is noticed only when the listener reconnects).
 */
export interface PosKeyCache {
  lookup(keyHash: string): PosIdentity | undefined;
  /** The generation to pass to `remember` for a read that starts now. */
  generation(): number;
  remember(keyHash: string, identity: PosIdentity, readInGeneration: number): void;
  /** A key changed (or all, with no id): nothing remembered of it is used again. */
  forget(posId?: string): void;
  /** Off while cross-server invalidation is not guaranteed (no listener yet, or it was lost). */
  setUsable(usable: boolean): void;
  isUsable(): boolean;
}

/** Enough for any number of tills a server sees; past it the cache starts over rather than grow. */
const MAX_ENTRIES = 10_000;

export function createPosKeyCache(ttlMs: number, options: { usable: boolean }): PosKeyCache {
  const entries = new Map<string, { id: string; name: string; until: number }>();
  let usable = options.usable && ttlMs > 0;
  let generation = 0;
  const forgetAll = () => {
    generation++;
    entries.clear();
  };
  return {
    lookup(keyHash) {
      if (!usable) return undefined;
      const entry = entries.get(keyHash);
      if (!entry) return undefined;
      if (entry.until <= Date.now()) {
        entries.delete(keyHash);
        return undefined;
      }
      // lastUsedAt is stamped from the database read that filled the entry (`stale`), not from hits.
      return { id: entry.id, name: entry.name, stale: false };
    },
    generation: () => generation,
    remember(keyHash, identity, readInGeneration) {
      if (!usable || readInGeneration !== generation) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(keyHash, { id: identity.id, name: identity.name, until: Date.now() + ttlMs });
    },
    forget(posId) {
      if (posId === undefined) return forgetAll();
      generation++;
      for (const [hash, entry] of entries) if (entry.id === posId) entries.delete(hash);
    },
    setUsable(next) {
      forgetAll();
      usable = next && ttlMs > 0;
    },
    isUsable: () => usable,
  };
}
