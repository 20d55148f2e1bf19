import { randomInt } from 'node:crypto';
import type { AccrualRequest, PosKey, PosKeyStatus } from '@loyalty/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectJson, uniqueName } from './fixtures';
import { accountWithCard, createRuleset, isoInDays, listRulesets } from './programme-api';

/**
 * API helpers for the POS Keys, POS API and receipt browser tests. Each takes a signed-in request context
 * (the `api` fixture) or the anonymous `request` for the till's own calls, and every test makes its own data.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 32-character alphanumeric key no other test uses. */
export function randomApiKey(length = 32): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

export interface NewPosKey {
  name?: string;
  address?: string | null;
  status?: PosKeyStatus;
  apiKey?: string;
}

export interface CreatedPosKey extends PosKey {
  apiKey: string;
}

/** A POS key made through the admin API; the answer never holds the key, so it is added back. */
export async function createPosKey(api: APIRequestContext, fields: NewPosKey = {}): Promise<CreatedPosKey> {
  const apiKey = fields.apiKey ?? randomApiKey();
  const body = {
    name: fields.name ?? uniqueName('Till'),
    address: fields.address === undefined ? `${randomInt(1, 999)} High Street` : fields.address,
    apiKey,
    status: fields.status ?? 'active',
  };
  const created = await expectJson<PosKey>(await api.post('/api/v1/pos-keys', { data: body }));
  return { ...created, apiKey };
}

/** The POS accrues only under a ruleset in force; any will do, so one is made only when none is. */
export async function ensureRulesetInForce(api: APIRequestContext): Promise<void> {
  const { content } = await listRulesets(api, { status: 'Active', size: 1 });
  if (content.length === 0) await createRuleset(api, { percent: 5, activeFrom: isoInDays(-1) });
}

export interface AccrualResult {
  operationId: string;
  points: number;
  balance: number;
  receipt: {
    receiptId: string;
    totalAmount: number;
    totalDiscount: number;
    items: { sku: string; lineTotal: number; bonusPoints: number }[];
  };
}

/** `POST /pos/api/v1/accruals` as a till. */
export async function posAccrual(
  request: APIRequestContext,
  apiKey: string,
  body: AccrualRequest,
): Promise<AccrualResult> {
  return expectJson<AccrualResult>(
    await request.post('/pos/api/v1/accruals', { data: body, headers: { 'X-API-Key': apiKey } }),
  );
}

/** A till, a card and one accrual on a receipt of the given lines: what the receipt dialog shows. */
export async function accrualWithReceipt(
  api: APIRequestContext,
  request: APIRequestContext,
  items: AccrualRequest['receipt']['items'],
  till: NewPosKey = {},
) {
  await ensureRulesetInForce(api);
  const { card } = await accountWithCard(api);
  const posKey = await createPosKey(api, till);
  const receiptId = uniqueName('R');
  const accrual = await posAccrual(request, posKey.apiKey, {
    operationId: uniqueName('op'),
    cardNumber: card.number,
    receipt: { receiptId, items },
  });
  return { card, posKey, receiptId, accrual };
}

/** `GET /pos/api/v1/cards/{number}` as a till: the status says whether the key is accepted. */
export async function posCardStatus(request: APIRequestContext, apiKey: string, cardNumber: string) {
  const response = await request.get(`/pos/api/v1/cards/${cardNumber}`, { headers: { 'X-API-Key': apiKey } });
  return response.status();
}

/** The POS Keys screen filtered down to one search text. */
export async function openPosKeys(page: Page, search?: string) {
  await page.goto('/pos-keys');
  if (search) await page.getByLabel('Search POS keys').fill(search);
}
