import { describe, expect, it } from 'vitest';
import { checkTarget, isPublicAddress, TargetRefused } from './ssrf-guard';
import { startReceiver } from './webhook-receiver.test-support';
import { sendWebhook } from './webhook-sender';

const message = { id: '1', body: '{}', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };

describe('SSRF guard', () => {
  it('only plain unicast addresses are public', () => {
    const refused = [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254', // cloud metadata
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254', // metadata over IPv6
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '::7f00:1', // IPv4-compatible (deprecated) 127.0.0.1, which ipaddr.js calls unicast
      '::a9fe:a9fe', // the same form of 169.254.169.254
      'not-an-address',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses http and address literals that are not public, unless private targets are allowed', () => {
    for (const url of [
      'http://example.com/',
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://169.254.169.254/',
      'ftp://x/',
    ]) {
      expect(() => checkTarget(url, false), url).toThrow(TargetRefused);
    }
    expect(checkTarget('https://example.com/hook', false).hostname).toBe('example.com');
    expect(checkTarget('http://127.0.0.1:9/hook', true).port).toBe('9');
    expect(() => checkTarget('ftp://127.0.0.1/', true)).toThrow(TargetRefused);
  });

  it('judges the address a name resolves to when the socket connects (localhost is refused, reaches nothing)', async () => {
    const receiver = await startReceiver();
    try {
      // https to a name: no literal to judge before the connection; the lookup refuses 127.0.0.1.
      const refused = await sendWebhook(`https://localhost:${receiver.port}/hook`, message, {
        timeoutMs: 5000,
        allowPrivate: false,
      });
      expect(refused).toEqual({
        status: null,
        error: expect.stringMatching(/localhost resolves to .*not a public address/),
      });
      const literal = await sendWebhook(`${receiver.url}/hook`, message, {
        timeoutMs: 5000,
        allowPrivate: false,
      });
      expect(literal.error).toMatch(/http: targets are not allowed/);
      expect(receiver.received).toHaveLength(0);
      const allowed = await sendWebhook(`http://localhost:${receiver.port}/hook`, message, {
        timeoutMs: 5000,
        allowPrivate: true,
      });
      expect(allowed).toEqual({ status: 200, error: null });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
