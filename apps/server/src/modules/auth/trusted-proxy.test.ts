import { describe, expect, it } from 'vitest';
import { createTestContext, PASSWORD } from '../../../test/helper';
import { ConfigError, loadConfig } from '../../config';

// A load balancer at 10.0.0.1 in front of the server: TRUST_PROXY names it.
const ctx = await createTestContext({ TRUST_PROXY: '10.0.0.0/8', LOGIN_MAX_FAILURES_PER_USERNAME: '3' });

const login = (username: string, password: string, remoteAddress: string, forwardedFor?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/auth/api/v1/login',
    payload: { username, password },
    remoteAddress,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

describe('TRUST_PROXY: the sign-in throttle counts the client behind a trusted balancer', () => {
  it("a guesser behind the balancer blocks only their own address, not the user's", async () => {
    for (let i = 0; i < 3; i++)
      expect((await login('manager', 'wrong-guess', '10.0.0.1', '203.0.113.9')).statusCode).toBe(401);
    expect((await login('manager', PASSWORD, '10.0.0.1', '203.0.113.9')).statusCode).toBe(429);
    // Without TRUST_PROXY both came from 10.0.0.1, and the user was refused too.
    expect((await login('manager', PASSWORD, '10.0.0.1', '198.51.100.7')).statusCode).toBe(200);
  });

  it('X-Forwarded-For from anyone else is not believed: a client cannot pick its address', async () => {
    for (let i = 0; i < 3; i++)
      expect((await login('viewer', 'wrong-guess', '203.0.113.20', `192.0.2.${i}`)).statusCode).toBe(401);
    expect((await login('viewer', PASSWORD, '203.0.113.20', '192.0.2.99')).statusCode).toBe(429);
  });

  it('takes addresses, CIDR ranges or a hop count, and refuses anything else (true included)', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
    ]);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({}).TRUST_PROXY).toBeUndefined();
    for (const bad of ['true', 'lb.internal', '10.0.0.0/33', '10.0.0.1/8/1'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
  });
});
