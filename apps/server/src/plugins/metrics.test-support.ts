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

/** The value of one series (`name{labels}` exactly as exposed) in a scraped body; 0 when absent. */
export function metricValue(body: string, series: string): number {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/**
 * The sum of every series of `name` whose labels include `labels` (say a histogram's `_count` of one outcome
 * over every kind), whatever the order the labels are exposed in; 0 when there is none.
 */
export function metricSum(body: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of body.split('\n')) {
    const series = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!series || series[1] !== name) continue;
    const pairs = `,${series[2] ?? ''},`;
    if (Object.entries(labels).every(([key, value]) => pairs.includes(`,${key}="${value}",`))) {
      sum += Number(series[3]);
    }
  }
  return sum;
}
