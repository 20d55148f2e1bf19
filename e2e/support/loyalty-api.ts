import type { Account, Card, ManualAccrualResponse } from '@loyalty/contracts';
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { expectJson, uniqueName } from './fixtures';

/**
 * API helpers for the Accounts, Loyalty Cards and Client Lookup browser tests. Each takes a signed-in
 * request context (the `api` fixture) and returns the server's JSON; every test makes its own data.
 */

export async function createAccount(
  api: APIRequestContext,
  clientId = uniqueName('client'),
): Promise<Account> {
  return expectJson<Account>(await api.post('/api/v1/accounts', { data: { clientId } }));
}

export async function issueCard(api: APIRequestContext, accountId: string): Promise<Card> {
  return expectJson<Card>(await api.post(`/api/v1/cards/issue/${accountId}`));
}

export async function blockCard(api: APIRequestContext, cardId: string, reason?: string): Promise<Card> {
  return expectJson<Card>(
    await api.post(`/api/v1/cards/${cardId}/block`, { data: reason ? { reason } : {} }),
  );
}

export async function addPoints(
  api: APIRequestContext,
  accountId: string,
  points: number,
  reason: string | null = null,
): Promise<ManualAccrualResponse> {
  return expectJson<ManualAccrualResponse>(
    await api.post('/api/v1/admin/operations/manual-accrual', { data: { accountId, points, reason } }),
  );
}

export async function getAccount(api: APIRequestContext, id: string): Promise<Account> {
  return expectJson<Account>(await api.get(`/api/v1/accounts/${id}`));
}

export async function cardsOf(api: APIRequestContext, accountId: string): Promise<Card[]> {
  const page = await expectJson<{ content: Card[] }>(
    await api.get('/api/v1/cards', { params: { accountId, size: 200 } }),
  );
  return page.content;
}

/** An account with one active card and, when asked, a balance. */
export async function createCardholder(api: APIRequestContext, points = 0) {
  const account = await createAccount(api);
  const card = await issueCard(api, account.id);
  if (points > 0) await addPoints(api, account.id, points);
  return { account, card };
}

/**
 * Holds points on a card through the POS API, so the account shows a held balance. Needs a POS key:
 * one is created (active) with a unique 32-character key.
 */
export async function holdPoints(
  api: APIRequestContext,
  request: APIRequestContext,
  cardNumber: string,
  points: number,
): Promise<void> {
  const apiKey = `k${uniqueName('hold').replace(/-/g, '')}`.padEnd(32, '0').slice(0, 32);
  await expectJson(
    await api.post('/api/v1/pos-keys', {
      data: { name: uniqueName('till'), address: null, apiKey, status: 'active' },
    }),
  );
  await expectJson(
    await request.post('/pos/api/v1/holds', {
      data: { operationId: uniqueName('hold-op'), cardNumber, points },
      headers: { 'X-API-Key': apiKey },
    }),
  );
}

/** Answers a matched call with an API error body, as the server's error handler would. */
export function failWith(status: number, message: string, code?: string) {
  return (route: Route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: JSON.stringify({ status, message, ...(code ? { code } : {}) }),
    });
}

/**
 * Holds matching calls until `release()`; the page can be checked in its "saving" state meanwhile. Released,
 * a call goes on to the server, or meets `then` (e.g. `route.abort()` for a call that must never get there).
 */
export async function holdRequests(
  page: Page,
  url: string | RegExp,
  method = 'POST',
  then: (route: Route) => Promise<void> = (route) => route.fallback(),
) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    await gate;
    return then(route);
  });
  return { release };
}

/** True when the page is no wider than the viewport (nothing sticks out sideways at 390 px). */
export async function fitsViewport(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}
