import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so key order in the request does not matter. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What an idempotency record keeps of its request, to tell a retry (same hash: the first answer again) from
 * another request under the same key (409): SHA-256 (hex) of the parts, one per line: what was asked (a
 * POS write's kind and target, `manual-accrual`…) and then the request itself, usually its `canonicalJson`.
 * Stored hashes must stay comparable across releases: a change of this format makes every retry of a
 * request answered before it a 409.
 */
export function requestHash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}
