import { createHash } from 'node:crypto';
import type { Secrets } from '../../lib/secrets';
import { deriveSecretKey } from '../pos-keys/key-crypto';

/**
 * The secret erased client IDs are keyed with (migration 041): derived from POS_KEY_SECRET, which every server
 * of a database shares and the database never holds. The erasure writes keys with it; the member import
 * compares with it. The digests kept of requests and files are keyed with it too (`keyedDigest`).
 */
export function erasedClientSecret(secrets: Secrets): string {
  return deriveSecretKey(secrets.posKeySecret, 'erased-client', 'key');
}

/**
 * A digest that may be of a member's data (a CSV body, a file's rows, a manual accrual's request), keyed with
 * `secret` (`erasedClientSecret`) as it is stored: what an erasure keeps then holds nothing a guessed client ID
 * or reason can be checked against without the secret (migration 048). Migration 041's secret prefix, so that
 * SQL (`erased_client_key_keyed`) keys a digest stored plain by an earlier version in the same way.
 */
export function keyedDigest(secret: string, plain: string): string {
  return createHash('sha256').update(`${secret}:${plain}`, 'utf8').digest('hex');
}
