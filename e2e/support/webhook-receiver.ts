import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver for a browser test: node:http on a free loopback port, answering `status` (changeable
 * mid-test) and keeping what it got. The e2e server allows http to 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE).
 * `hold()` keeps every answer back until `release()` (or `close()`): while it holds, the endpoint's stream
 * cannot move, so what was written for it stays its backlog (within WEBHOOK_TIMEOUT_MS).
 */
export async function startWebhookReceiver(status = 200) {
  const received: ReceivedCall[] = [];
  let answer = status;
  let held: (() => void)[] | null = null;
  const release = () => {
    const waiting = held ?? [];
    held = null;
    for (const reply of waiting) reply();
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const reply = () => res.writeHead(answer).end();
      if (held) held.push(reply);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}/${path}`,
    received,
    answer: (next: number) => {
      answer = next;
    },
    hold: () => {
      held ??= [];
    },
    release,
    close: () => {
      release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
