import type { Secrets } from '../../lib/secrets';
import { deriveSecretKey } from '../pos-keys/key-crypto';

/**
 * The secret erased client IDs are keyed with (migration 041): derived from POS_KEY_SECRET, which every server
 * of a database shares and the database never holds. The erasure writes keys with it; the member import
 * compares with it.
 */
export function erasedClientSecret(secrets: Secrets): string {
  return deriveSecretKey(secrets.posKeySecret, 'erased-client', 'key');
}
