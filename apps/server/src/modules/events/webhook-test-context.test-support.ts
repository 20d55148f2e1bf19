import { beforeEach, expect } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/helper';
import type { Db } from '../../db/connection';
import { type Receiver, startReceiver } from './webhook-receiver.test-support';
import { webhookCrypto } from './webhooks.service';

/**
 * A test app whose webhooks a test delivers by hand (no worker, no hold sweeper), to receivers on
 * 127.0.0.1, with the key crypto the worker would use.
 */
export async function webhookTestContext() {
  const ctx = await createTestContext({
    WEBHOOK_POLL_INTERVAL_MS: '0',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const crypto = webhookCrypto({ jwtSecret: '', posKeySecret: '0'.repeat(64) });
  return { ctx, db: ctx.database.db, crypto };
}

/**
 * A receiver per test, and no endpoint left from the test before (none gets, or counts, another test's events):
 * `current` is the test's receiver, closed after it.
 */
export function receiverPerTest(db: Db): { readonly current: Receiver } {
  const holder = {} as { current: Receiver };
  beforeEach(async () => {
    await db.deleteFrom('webhook_endpoints').execute();
    holder.current = await startReceiver();
    return () => holder.current.close();
  });
  return holder;
}

/** An ADMIN's call that must succeed: its JSON answer. */
export function adminApi(ctx: TestContext) {
  return async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await ctx.app.inject({
      method,
      url,
      headers: bearer(ctx.tokens.ADMIN),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
}
