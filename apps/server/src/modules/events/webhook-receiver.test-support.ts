import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An answer the test gives when it chooses (`hold`). */
type Held = () => Promise<number>;

/**
 * A real HTTP receiver on 127.0.0.1 for the webhook tests. `answers` is consumed one per request (a
 * status, 'hang' to never answer, or a held answer); when it is empty, `decide` answers, or else `fallback`
 * (see `always`).
 */
export async function startReceiver(decide?: () => number | 'hang') {
  const received: Received[] = [];
  const answers: Array<number | 'hang' | Held> = [];
  let fallback: number | 'hang' = 200;
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', async () => {
      received.push({ headers: req.headers, body });
      const next = answers.shift() ?? decide?.() ?? fallback;
      const answer = typeof next === 'function' ? await next() : next;
      if (answer === 'hang') {
        hanging.add(() => res.destroy());
        return;
      }
      if (answer >= 300 && answer < 400) res.setHeader('location', `${url}/elsewhere`);
      res.statusCode = answer;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    received,
    answer(...next: Array<number | 'hang'>) {
      answers.push(...next);
    },
    always(answer: number | 'hang') {
      fallback = answer;
    },
    /**
     * Holds the answer to the next request until `release()`: a test can change things while an attempt
     * is in flight. `arrived` settles when that request has come.
     */
    hold(status = 200) {
      let arrive!: () => void;
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      answers.push(async () => {
        arrive();
        await released;
        return status;
      });
      return { arrived, release };
    },
    async close() {
      for (const drop of hanging) drop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
