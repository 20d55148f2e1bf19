import { createTestContext } from '../../../test/helper';
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
