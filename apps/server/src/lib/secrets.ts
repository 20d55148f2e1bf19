import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, secretChecks } from '../config';
import { ensurePrivateDir } from './private-dir';

export interface Secrets {
  jwtSecret: string;
  posKeySecret: string;
}

/**
 * What DATA_DIR/secrets.json may hold: the checks of JWT_SECRET and POS_KEY_SECRET (config.ts). A field the
 * environment sets is still checked: the file is kept for when the environment stops setting it.
 */
const storedSecrets = z.object({
  jwtSecret: secretChecks.jwtSecret.optional(),
  posKeySecret: secretChecks.posKeySecret.optional(),
});

/**
 * Secrets come from the environment; whatever is missing is generated once and kept in
 * `DATA_DIR/secrets.json` (owner-only), never in the database, so a database dump alone cannot
 * forge sessions or decrypt POS keys. Several servers on one database must share them via the environment;
 * one started with other secrets refuses to start (their fingerprints: db/secret-fingerprints.ts).
 */
export function loadSecrets(dataDir: string, env: { JWT_SECRET?: string; POS_KEY_SECRET?: string }): Secrets {
  const file = join(dataDir, 'secrets.json');
  const stored: Partial<Secrets> = existsSync(file) ? readStored(file) : {};
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

/** The kept secrets, or a ConfigError naming the file and the field (a hand edit, a disk that filled up). */
function readStored(file: string): Partial<Secrets> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // Not the parser's words: they quote the text around the fault, a piece of a secret.
    throw new ConfigError(`${file}: is not valid JSON (truncated or edited by hand?)`);
  }
  const parsed = storedSecrets.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length > 0 ? `${issue.path.join('.')} ` : '';
  throw new ConfigError(`${file}: ${field}${issue.message}`);
}
