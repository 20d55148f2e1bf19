import { randomBytes } from 'node:crypto';

export interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  replayed: boolean;
}

/** One HTTP call; a refused or reset connection (a killed server) is `status: 0`, never a throw. */
export async function call(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; token?: string; apiKey?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  try {
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  } catch {
    return { status: 0, body: null, replayed: false };
  }
}

async function ok(answer: Promise<Answer>, what: string, status = 201) {
  const got = await answer;
  if (got.status !== status) throw new Error(`${what}: ${got.status} ${JSON.stringify(got.body)}`);
  return got.body!;
}

export async function login(url: string, username: string, password: string): Promise<string> {
  const body = await ok(
    call(url, 'POST', '/auth/api/v1/login', { body: { username, password } }),
    'login',
    200,
  );
  return body.token as string;
}

export interface Programme {
  token: string;
  apiKey: string;
  /** One card per entry, each on its own account. */
  cards: string[];
}

/**
 * Through the Admin API only: a 10% ruleset in force, a POS key and `cards` accounts with a card each.
 * A receipt of one item at 10.00 then earns exactly 1 point, so balances count operations.
 */
export async function setUpProgramme(url: string, admin: { username: string; password: string }, cards = 1) {
  const token = await login(url, admin.username, admin.password);
  await ok(
    call(url, 'POST', '/api/v1/rulesets', {
      token,
      body: {
        version: 1,
        config: { percent: 10 },
        activeFrom: new Date(Date.now() - 3_600_000).toISOString(),
      },
    }),
    'ruleset',
  );
  const apiKey = randomBytes(24).toString('base64url');
  await ok(call(url, 'POST', '/api/v1/pos-keys', { token, body: { name: 'Fault till', apiKey } }), 'POS key');
  const numbers: string[] = [];
  for (let i = 0; i < cards; i++) {
    const account = await ok(
      call(url, 'POST', '/api/v1/accounts', { token, body: { clientId: `fault-client-${i}` } }),
      'account',
    );
    const card = await ok(call(url, 'POST', `/api/v1/cards/issue/${account.id}`, { token }), 'card');
    numbers.push(card.number as string);
  }
  return { token, apiKey, cards: numbers } satisfies Programme;
}

export function accrualBody(operationId: string, cardNumber: string) {
  return {
    operationId,
    cardNumber,
    receipt: { receiptId: `r-${operationId}`, items: [{ sku: 'SKU-1', quantity: 1, price: 10 }] },
  };
}

export async function cardBalance(url: string, apiKey: string, cardNumber: string) {
  const body = await ok(call(url, 'GET', `/pos/api/v1/cards/${cardNumber}`, { apiKey }), 'balance', 200);
  return body as { balance: number; heldBalance: number; availableBalance: number };
}
