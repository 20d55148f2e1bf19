import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from './private-dir';

export interface Secrets {
  jwtSecret: string;
  posKeySecret: string;
}

/**
 * Secrets come from the environment; whatever is missing is generated once and kept in
 * `DATA_DIR/secrets.json` (owner-only), never in the database, so a database dump alone cannot
 * forge sessions or decrypt POS keys. Several servers on one database must share them via the environment;
 * one started with other secrets refuses to start (their fingerprints: db/secret-fingerprints.ts).
 */
export function loadSecrets(dataDir: string, env: { JWT_SECRET?: string; POS_KEY_SECRET?: string }): Secrets {
  const file = join(dataDir, 'secrets.json');
  const stored: Partial<Secrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets: Secrets = {
    jwtSecret: env.JWT_SECRET ?? stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    posKeySecret: env.POS_KEY_SECRET ?? stored.posKeySecret ?? randomBytes(32).toString('hex'),
  };
  const toStore = {
    jwtSecret: env.JWT_SECRET ? stored.jwtSecret : secrets.jwtSecret,
    posKeySecret: env.POS_KEY_SECRET ? stored.posKeySecret : secrets.posKeySecret,
  };
  if (toStore.jwtSecret !== stored.jwtSecret || toStore.posKeySecret !== stored.posKeySecret) {
    ensurePrivateDir(dataDir);
    writeFileSync(file, JSON.stringify(toStore, null, 2), { mode: 0o600 });
  }
  return secrets;
}
