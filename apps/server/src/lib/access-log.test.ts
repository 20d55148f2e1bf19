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

describe('the access log, for identifiers sent where an id belongs', () => {
  it('keeps no client ID or card number sent in place of a UUID, with a route or without', async () => {
    // Found by helper 149: these answered 400 (or 404) and their lines kept the client ID and card number.
    await app.inject({ url: '/api/v1/accounts/ZQ-Probe-5151/export' });
    await app.inject({ method: 'POST', url: '/api/v1/cards/4444555566667777/block', payload: {} });
    await app.inject({ url: '/api/v1/audit?targetId=ZQ-Probe-5454' });
    await app.inject({ url: '/api/v1/acounts/ZQ-Probe-5252' });
    const logged = lines.join('');
    expect(logged).toContain('/api/v1/accounts/[redacted]/export');
    expect(logged).toContain('/api/v1/cards/[redacted]/block');
    expect(logged).toContain('/api/v1/audit?targetId=[redacted]');
    expect(logged).toContain('/api/v1/acounts/[redacted]');
    expect(logged).not.toMatch(/ZQ-Probe|4444555566667777/);
  });
});
