import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helper';
import { buildApp } from '../app';
import { loadConfig } from '../config';

// The real app with its real logger at `info`, its lines caught: what an operator's access log would keep.
const database = await openTestDatabase();
const lines: string[] = [];
const app = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'info', WEB_DIST: '/nonexistent' }),
  database,
  secrets: { jwtSecret: 'test-secret-that-is-long-enough-0123456789', posKeySecret: '0'.repeat(64) },
  logStream: { write: (line) => lines.push(line) },
});
await app.ready();
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('the access log', () => {
  it('keeps no client ID or card number of a request, in its path or its query', async () => {
    await app.inject({ url: '/api/v1/clients/JANE-DOE-0042/lookup' });
    await app.inject({ url: '/pos/api/v1/cards/4000123412341234' });
    await app.inject({ url: '/api/v1/accounts?search=JANE-DOE-0042&page=0' });
    const logged = lines.join('');
    expect(logged).toContain('/api/v1/clients/[redacted]/lookup');
    expect(logged).toContain('/pos/api/v1/cards/[redacted]');
    expect(logged).toContain('/api/v1/accounts?search=[redacted]&page=0');
    expect(logged).not.toContain('JANE-DOE-0042');
    expect(logged).not.toContain('4000123412341234');
  });
});
