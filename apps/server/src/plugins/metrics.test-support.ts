import type { LightMyRequestResponse } from 'fastify';

/** Scrapes until the body matches (bounded): the sweeper runs on its own timer, so poll, don't sleep. */
export async function pollUntilMetric(
  scrape: () => Promise<LightMyRequestResponse>,
  pattern: RegExp,
  attempts = 200,
): Promise<string> {
  let body = '';
  for (let i = 0; i < attempts; i++) {
    body = (await scrape()).body;
    if (pattern.test(body)) return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`metrics never matched ${pattern}:\n${body.slice(0, 2000)}`);
}
