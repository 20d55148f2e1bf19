import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../apps/server/src/db/connection';
import { createKeyCrypto } from '../apps/server/src/modules/pos-keys/key-crypto';

/**
 * `count` active POS keys named `${name} ${i}`, stored as the server stores them (hash and cipher under
 * POS_KEY_SECRET = `secretHex`); returns their plain text, which a bench sends as X-API-Key.
 */
export async function seedPosKeys(db: Db, secretHex: string, count: number, name: string): Promise<string[]> {
  const crypto = createKeyCrypto(secretHex);
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const key = randomBytes(24).toString('base64url');
    await db
      .insertInto('pos_keys')
      .values({
        id,
        name: `${name} ${i}`,
        address: null,
        key_hash: crypto.hash(key),
        key_cipher: crypto.encrypt(key, id),
        status: 'active',
      })
      .execute();
    keys.push(key);
  }
  return keys;
}
