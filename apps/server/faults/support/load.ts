import { randomUUID } from 'node:crypto';
import { type Answer, accrualBody, call } from './api';

export interface Sent {
  operationId: string;
  body: unknown;
  answer: Answer;
}

/**
 * POS accrual load: `clients` tills each send accruals one after another (round-robin over `servers`)
 * until `stop()` is called or each has sent `maxPerClient`. Every request and its answer is kept.
 */
export function startAccrualLoad(options: {
  servers: () => string[];
  apiKey: string;
  cardNumber: string;
  clients: number;
  maxPerClient?: number;
}) {
  const sent: Sent[] = [];
  let stopped = false;
  const max = options.maxPerClient ?? 2_000;
  const tills = Array.from({ length: options.clients }, async (_, client) => {
    for (let i = 0; i < max && !stopped; i++) {
      const servers = options.servers();
      const url = servers[(client + i) % servers.length]!;
      const operationId = `fault-${randomUUID()}`;
      const body = accrualBody(operationId, options.cardNumber);
      const answer = await call(url, 'POST', '/pos/api/v1/accruals', { body, apiKey: options.apiKey });
      sent.push({ operationId, body, answer });
      // A refused connection or a 503 comes back at once: don't spin through the whole budget while a
      // server or the database is down (a pause between attempts, as a till would make; not a sync).
      if (answer.status === 0 || answer.status === 503)
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  const done = Promise.all(tills);
  return {
    sent,
    acknowledged: () => sent.filter((s) => s.answer.status === 201).length,
    count: (status: number) => sent.filter((s) => s.answer.status === status).length,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/**
 * Sends each request again with its operationId until it is acknowledged (bounded). An acknowledged
 * one must come back as the same answer, replayed; a failed one may have been written or not, and the
 * retry settles it exactly once.
 */
export async function settle(url: string, apiKey: string, sent: Sent[]) {
  const problems: string[] = [];
  for (const s of sent) {
    let answer: Answer = { status: 0, body: null, replayed: false };
    for (let attempt = 0; attempt < 20 && answer.status !== 201; attempt++) {
      answer = await call(url, 'POST', '/pos/api/v1/accruals', { body: s.body, apiKey });
    }
    if (answer.status !== 201) problems.push(`${s.operationId}: ${answer.status}`);
    else if (s.answer.status === 201) {
      if (!answer.replayed) problems.push(`${s.operationId}: acknowledged but not found (applied again)`);
      if (JSON.stringify(answer.body) !== JSON.stringify(s.answer.body)) {
        problems.push(`${s.operationId}: replay differs from the first answer`);
      }
    }
  }
  return problems;
}
