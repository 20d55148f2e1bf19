/**
 * A fresh Idempotency-Key: 128 random bits as hex, from `crypto.getRandomValues`, which (unlike
 * `crypto.randomUUID`) browsers also offer on a console served over plain http inside a retailer's network.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
