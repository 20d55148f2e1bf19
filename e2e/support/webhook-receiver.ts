import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver for a browser test: node:http on a free loopback port, answering `status` (changeable
 * mid-test) and keeping what it got. The e2e server allows http to 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE).
 */
export async function startWebhookReceiver(status = 200) {
  const received: ReceivedCall[] = [];
  let answer = status;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answer).end();
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
