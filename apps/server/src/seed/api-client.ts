import type { App } from '../app';

/**
 * The seed talks to the product through its own HTTP routes (in-process `inject`), so every row is
 * written by the same validation, services and transactions a real client gets.
 */
export interface SeedApi {
  admin<T = unknown>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<T>;
  /** A POS call; answers the status and body without throwing, since refusals are part of the story. */
  pos(
    apiKey: string,
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }>;
}

export function createSeedApi(app: App, adminToken: string): SeedApi {
  return {
    async admin(method, url, body) {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${adminToken}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
      return (res.body ? res.json() : undefined) as never;
    },
    async pos(apiKey, method, url, body) {
      const res = await app.inject({
        method,
        url,
        headers: { 'x-api-key': apiKey },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: res.statusCode, body: res.body ? res.json() : undefined };
    },
  };
}
