import { randomInt } from 'node:crypto';
import type {
  Account,
  AccrualRequest,
  Card,
  ExcludedSku,
  Operation,
  Paged,
  Ruleset,
  Settings,
  UpdateSettingsRequest,
} from '@loyalty/contracts';
import type { APIRequestContext } from '@playwright/test';
import { expectJson, uniqueName } from './fixtures';
import { createAccount, issueCard } from './loyalty-api';

/**
 * API helpers for the programme screens' browser tests (settings, rulesets, SKU exclusions, operations).
 * Every helper takes a signed-in request context (the `api` fixture) and returns the server's JSON.
 */

/**
 * Ruleset versions by purpose, so that parallel tests never collide and never take over the ruleset in
 * force by accident: automatic versions are the current time in seconds (~1.8e9); `lowVersion` stays far
 * below them (safe for Active rulesets); `topVersion` lies above every automatic one and grows with the clock
 * (the SKU screen's "latest" ruleset), inside the 32-bit bound versions have (issue 15.3).
 */
export function lowVersion(): number {
  return randomInt(100_000, 900_000_000);
}

let lastTop = 0;

/** Grows with the clock, so the ruleset made last is the latest (the SKU screen preselects it). */
export function topVersion(): number {
  // 2e9 + seconds since 2026: above the automatic versions (~1.8e9), below 2^31 until 2030.
  lastTop = Math.max(lastTop + 1, 2_000_000_000 + Math.floor((Date.now() - Date.UTC(2026, 0, 1)) / 1000));
  return lastTop;
}

export const isoInDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

export async function getSettings(api: APIRequestContext): Promise<Settings> {
  return expectJson<Settings>(await api.get('/api/v1/settings'));
}

export async function saveSettings(api: APIRequestContext, body: UpdateSettingsRequest): Promise<Settings> {
  return expectJson<Settings>(await api.post('/api/v1/settings', { data: body }));
}

export interface NewRuleset {
  version?: number | null;
  percent?: number;
  activeFrom?: string | null;
}

export async function createRuleset(api: APIRequestContext, ruleset: NewRuleset = {}): Promise<Ruleset> {
  const body = {
    version: ruleset.version === undefined ? lowVersion() : ruleset.version,
    config: { percent: ruleset.percent ?? 5 },
    activeFrom: ruleset.activeFrom ?? null,
  };
  return expectJson<Ruleset>(await api.post('/api/v1/rulesets', { data: body }));
}

export async function listRulesets(api: APIRequestContext, query: Record<string, string | number> = {}) {
  return expectJson<Paged<Ruleset>>(await api.get('/api/v1/rulesets', { params: { size: 200, ...query } }));
}

export async function addExcludedSku(
  api: APIRequestContext,
  rulesetId: string,
  sku: { sku: string; description?: string | null; category?: string | null },
): Promise<ExcludedSku> {
  return expectJson<ExcludedSku>(
    await api.post(`/api/v1/rulesets/${rulesetId}/excluded-skus`, { data: sku }),
  );
}

export async function listExcludedSkus(api: APIRequestContext, rulesetId: string): Promise<ExcludedSku[]> {
  const page = await expectJson<Paged<ExcludedSku>>(
    await api.get(`/api/v1/rulesets/${rulesetId}/excluded-skus`, { params: { size: 200 } }),
  );
  return page.content;
}

/** An account with one active card: what a till needs to accrue. */
export async function accountWithCard(api: APIRequestContext): Promise<{ account: Account; card: Card }> {
  const account = await createAccount(api);
  return { account, card: await issueCard(api, account.id) };
}

export async function manualAccrual(
  api: APIRequestContext,
  accountId: string,
  points: number,
  reason: string | null = null,
): Promise<Operation> {
  const body = { accountId, points, reason };
  const result = await expectJson<{ operation: Operation }>(
    await api.post('/api/v1/admin/operations/manual-accrual', { data: body }),
  );
  return result.operation;
}

export interface PosTill {
  name: string;
  address: string | null;
  apiKey: string;
}

/** A fresh active POS key; `address: null` makes a POS known by name only. */
export async function createPosKey(
  api: APIRequestContext,
  fields: { name?: string; address?: string | null } = {},
): Promise<PosTill> {
  const till: PosTill = {
    name: fields.name ?? uniqueName('till'),
    address: fields.address === undefined ? '1 Test Street, Springfield' : fields.address,
    apiKey: `e2e${uniqueName('key').replace(/-/g, '')}${randomInt(1e9, 9e9)}`.padEnd(32, 'x').slice(0, 32),
  };
  await expectJson(await api.post('/api/v1/pos-keys', { data: { ...till, status: 'active' } }));
  return till;
}

/** `POST /pos/api/v1/accruals` as the given till; returns the till's answer (points earned). */
export async function posAccrual(
  request: APIRequestContext,
  till: PosTill,
  body: AccrualRequest,
): Promise<{ operationId: string; points: number }> {
  const response = await request.post('/pos/api/v1/accruals', {
    data: body,
    headers: { 'X-API-Key': till.apiKey },
  });
  return expectJson(response);
}
