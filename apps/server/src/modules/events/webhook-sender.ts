import { createHmac, randomBytes } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { checkTarget, guardedLookup } from './ssrf-guard';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * `webhook-id` of an event's deliveries: `evt_<the event's message id>`, the same on every attempt, so
 * receivers can dedupe. Not the event id: it repeats across databases (staging and production feeding one
 * receiver) and after a database is restored from a backup; the message id is random, drawn when the event is
 * written (migration 047), and restored only with that event.
 */
export const webhookMessageId = (messageId: string) => `evt_${messageId}`;

export interface Message {
  /** `webhook-id` (`webhookMessageId`); the signature covers it. */
  id: string;
  body: string;
  secret: string;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface SendResult {
  status: number | null;
  error: string | null;
  /** The answer's `Retry-After` header as sent (seconds or an HTTP date); absent when it had none. */
  retryAfter?: string;
}

/**
 * Connections are kept open between attempts (issue 12's bar: one endpoint may cost a POS accrual at most
 * 10%): a fresh TCP (and TLS) connection per event was most of a delivery's cost. One pool per scheme and
 * per WEBHOOK_ALLOW_PRIVATE value, so a socket opened under one policy is never reused under the other; the
 * SSRF guard still judges the address of every socket it opens, and a reused socket goes to the address that
 * was judged. An idle socket closes after 2 s, before the usual 5 s of a receiver's keep-alive, so an attempt
 * rarely picks a socket the receiver is closing.
 */
const agents = new Map<string, HttpAgent>();
function agentFor(protocol: string, allowPrivate: boolean): HttpAgent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: 2000, maxFreeSockets: 16 };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * One attempt: POST the body with the Standard Webhooks headers. A 2xx within the time limit is success;
 * redirects are not followed (a 3xx is a failure like any other status), and the target is checked by the
 * SSRF guard on the address the socket connects to.
 */
export function sendWebhook(url: string, message: Message, options: SendOptions): Promise<SendResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = checkTarget(url, options.allowPrivate);
    } catch (error) {
      resolve({ status: null, error: (error as Error).message });
      return;
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(target, {
      method: 'POST',
      agent: agentFor(target.protocol, options.allowPrivate),
      lookup: guardedLookup(options.allowPrivate),
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(message.body),
        'user-agent': 'loyalty-admin-webhooks',
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(message.secret, message.id, timestamp, message.body),
      },
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    const finish = (result: SendResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    req.on('response', (res) => {
      // The answer's body is not kept; it is read so the connection closes cleanly.
      res.resume();
      const header = res.headers['retry-after'];
      const extra = typeof header === 'string' ? { retryAfter: header } : {};
      res.on('end', () => finish({ status: res.statusCode ?? null, error: null, ...extra }));
      res.on('error', (error) => finish({ status: res.statusCode ?? null, error: error.message, ...extra }));
    });
    req.on('error', (error) => finish({ status: null, error: error.message }));
    req.end(message.body);
  });
}

export const isSuccess = (result: SendResult) =>
  result.error === null && result.status !== null && result.status >= 200 && result.status < 300;
