import { describe, expect, it } from 'vitest';
import type { AppError } from '../../lib/app-error';
import { canonicalJson } from '../../lib/request-hash';
import { resolveExisting, writeContext } from './idempotency';

const HOLD = '0b7e6a4c-3f8e-4d3b-9a51-2f4f4f1f0c11';

describe('canonical JSON (what "the same request" means)', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,1]},"b":1}');
    expect(canonicalJson([{ y: 1, x: 2 }])).toBe('[{"x":2,"y":1}]');
  });

  it('drops undefined fields but keeps nulls, and escapes keys and strings as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
    expect(canonicalJson({ 'q"k': 'line\nbreak' })).toBe('{"q\\"k":"line\\nbreak"}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('numbers keep their shortest form, so 1 and 1.0 are the same request', () => {
    expect(canonicalJson({ n: 1.0 })).toBe(canonicalJson({ n: 1 }));
    expect(canonicalJson({ n: 0.1 })).not.toBe(canonicalJson({ n: 0.10000001 }));
  });

  it('the request hash ignores key order but not the route, the target or any value', () => {
    const body = { operationId: 'op', amount: 5, items: [1] };
    const hash = (kind: 'hold' | 'capture', target: string, request: typeof body) =>
      writeContext(kind, 'pos', target, request, 'r').hash;
    const a = hash('hold', 'card', body);
    expect(hash('hold', 'card', { items: [1], amount: 5, operationId: 'op' })).toBe(a);
    expect(hash('hold', 'other', body)).not.toBe(a);
    expect(hash('capture', 'card', body)).not.toBe(a);
    expect(hash('hold', 'card', { ...body, amount: 6 })).not.toBe(a);
  });

  it('an id already taken replays for the same POS and request, otherwise it is a conflict', () => {
    const ctx = writeContext('release', 'pos-1', 'h', { operationId: 'op' }, 'r');
    const stored = {
      pos_id: 'pos-1',
      request_hash: ctx.hash,
      status_code: 200,
      response: { extra: 1, availableBalance: 12.5, status: 'released', holdId: HOLD },
    };
    const replay = resolveExisting(stored, ctx);
    expect(replay).toEqual({
      status: 200,
      // The stored JSON goes through the response schema: its key order, nothing it does not declare.
      body: `{"holdId":"${HOLD}","status":"released","availableBalance":12.5}`,
      replayed: true,
    });
    const codeOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as AppError).code;
      }
    };
    expect(codeOf(() => resolveExisting({ ...stored, pos_id: 'pos-2' }, ctx))).toBe(
      'OPERATION_ID_USED_BY_OTHER_POS',
    );
    expect(codeOf(() => resolveExisting({ ...stored, request_hash: 'x' }, ctx))).toBe(
      'OPERATION_ID_ALREADY_USED',
    );
    expect(codeOf(() => resolveExisting(undefined, ctx))).toBe('OPERATION_ID_ALREADY_USED');
  });
});
