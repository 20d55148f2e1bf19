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
