import { describe, expect, it } from 'vitest';
import { loggedUrl } from './logged-request';

describe('loggedUrl', () => {
  it('takes client IDs and card numbers out of the paths that carry them', () => {
    expect(loggedUrl('/api/v1/clients/jane%40example.com/lookup?opsPage=1')).toBe(
      '/api/v1/clients/[redacted]/lookup?opsPage=1',
    );
    expect(loggedUrl('/pos/api/v1/cards/4000123412341234')).toBe('/pos/api/v1/cards/[redacted]');
    // Spelled with percent-escapes, as the router still reads them.
    expect(loggedUrl('/pos/api/v1/%63ards/4000123412341234')).toBe('/pos/api/v1/%63ards/[redacted]');
    expect(loggedUrl('/api/%761/clients/jane/lookup')).toBe('/api/%761/clients/[redacted]/lookup');
  });

  it('takes the values of member-naming query parameters out, and keeps the rest', () => {
    expect(loggedUrl('/api/v1/accounts?page=0&search=Jane%20Doe&size=20')).toBe(
      '/api/v1/accounts?page=0&search=[redacted]&size=20',
    );
    expect(loggedUrl('/api/v1/operations?cardNumber=4000123412341234&type=accrual')).toBe(
      '/api/v1/operations?cardNumber=[redacted]&type=accrual',
    );
    expect(loggedUrl('/api/v1/audit?username=admin&%73earch=x')).toBe(
      '/api/v1/audit?username=admin&%73earch=[redacted]',
    );
  });

  it("takes them out of the console's own addresses of a client: its page and Client Lookup's term", () => {
    // Before: a reload or a link of these logged the card number and the client ID as they were.
    expect(loggedUrl('/clients/4000123412341234')).toBe('/clients/[redacted]');
    expect(loggedUrl('/clients?id=alice%40example.com')).toBe('/clients?id=[redacted]');
    expect(loggedUrl('/%63lients/?id=alice')).toBe('/%63lients/?id=[redacted]');
    // `id` names a member on Client Lookup only.
    expect(loggedUrl('/audit?id=4b7f0c1e')).toBe('/audit?id=4b7f0c1e');
  });

  it('leaves other URLs as they are', () => {
    for (const url of [
      '/api/v1/accounts/4b7f0c1e-0000-4000-8000-000000000000',
      '/healthz',
      '/api/v1/cards?page=2&%zz',
    ])
      expect(loggedUrl(url)).toBe(url);
  });
});

describe('loggedUrl against the route that matched', () => {
  it('takes out what was sent in place of a UUID: a client ID or card number where an id belongs', () => {
    // Before: these requests answered 400 and their log lines kept the client ID and the card number.
    expect(loggedUrl('/api/v1/accounts/ZQ-Probe-5151/export', '/api/v1/accounts/:id/export')).toBe(
      '/api/v1/accounts/[redacted]/export',
    );
    expect(loggedUrl('/api/v1/cards/4444555566667777/block', '/api/v1/cards/:id/block')).toBe(
      '/api/v1/cards/[redacted]/block',
    );
    expect(loggedUrl('/api/v1/audit?targetId=ZQ-Probe-5454&page=0')).toBe(
      '/api/v1/audit?targetId=[redacted]&page=0',
    );
  });

  it('keeps UUIDs, a till operationId and a SKU, which name no member', () => {
    const id = '4b7f0c1e-0000-4000-8000-000000000000';
    for (const [url, pattern] of [
      [`/api/v1/accounts/${id}/export`, '/api/v1/accounts/:id/export'],
      ['/pos/api/v1/holds/till-7-op-19/capture', '/pos/api/v1/holds/:holdId/capture'],
      [`/api/v1/rulesets/${id}/excluded-skus/SKU-19`, '/api/v1/rulesets/:id/excluded-skus/:sku'],
      ['/api/v1/receipts/operation/till-7-op-19', '/api/v1/receipts/operation/:id'],
      ['/assets/index-Ab12.js', '/*'],
      [`/api/v1/audit?targetId=${id}`, '/api/v1/audit'],
    ])
      expect(loggedUrl(url!, pattern)).toBe(url);
  });

  it('with no route (a 404), keeps only UUIDs below an API resource', () => {
    expect(loggedUrl('/api/v1/acounts/ZQ-Probe-1/export', null)).toBe(
      '/api/v1/acounts/[redacted]/[redacted]',
    );
    expect(loggedUrl('/pos/api/v1/card/4000123412341234', null)).toBe('/pos/api/v1/card/[redacted]');
    expect(loggedUrl('/healthz/extra', null)).toBe('/healthz/extra');
  });
});
