import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * How a POS API key is stored: a keyed hash (HMAC-SHA256) to find it, and AES-256-GCM ciphertext to
 * reveal it. Both keys are derived from POS_KEY_SECRET, which never lives in the database, so a dump
 * alone neither reveals a key nor lets anyone test guesses against the hashes.
 */
export interface KeyCrypto {
  /** Lookup hash of a presented key (hex). */
  hash(apiKey: string): string;
  /** `v1:` + base64(iv ‖ tag ‖ ciphertext); bound to the row id, so ciphertexts cannot be swapped. */
  encrypt(apiKey: string, rowId: string): string;
  decrypt(stored: string, rowId: string): string;
}

const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function derive(secret: Buffer, namespace: string, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', secret, Buffer.alloc(0), `loyalty-admin/${namespace}/${purpose}`, 32),
  );
}

/**
 * A key of its own for another use of POS_KEY_SECRET (hex), e.g. keying the erased client IDs: one key per
 * purpose, so a key that reaches the database as a statement's parameter says nothing about the others.
 */
export function deriveSecretKey(secretHex: string, namespace: string, purpose: string): string {
  return derive(Buffer.from(secretHex, 'hex'), namespace, purpose).toString('hex');
}

/** `namespace` keeps each kind of stored secret under its own keys (webhook signing secrets: 'webhook'). */
export function createKeyCrypto(secretHex: string, namespace = 'pos-key'): KeyCrypto {
  if (!/^[0-9a-fA-F]{64}$/.test(secretHex)) throw new Error('POS key secret must be 64 hex characters');
  const secret = Buffer.from(secretHex, 'hex');
  const hmacKey = derive(secret, namespace, 'lookup');
  const encKey = derive(secret, namespace, 'encryption');
  return {
    hash: (apiKey) => createHmac('sha256', hmacKey).update(apiKey, 'utf8').digest('hex'),
    encrypt(apiKey, rowId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      cipher.setAAD(Buffer.from(rowId, 'utf8'));
      const body = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    decrypt(stored, rowId) {
      if (!stored.startsWith(VERSION)) throw new Error('Unknown POS key cipher format');
      const raw = Buffer.from(stored.slice(VERSION.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', encKey, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(rowId, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
