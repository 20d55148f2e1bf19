import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { runLog } from './outage-log';

/** The server's own logger (Fastify's pino), its JSON lines caught in an array. */
function capturedLog() {
  const lines: Array<{ level: number; msg: string; err?: { message: string } }> = [];
  const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
  return { log: Fastify({ logger: { level: 'info', stream } }).log, lines };
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('runLog', () => {
  it('logs the first failure of a database outage once, as a warning, and the recovery once', () => {
    const { log, lines } = capturedLog();
    const runs = runLog(log, 'hold sweep');
    runs.succeeded();
    for (let tick = 0; tick < 5; tick++) runs.failed(refused(), 'hold sweep failed');
    runs.succeeded();
    runs.succeeded();
    runs.failed(refused(), 'hold sweep failed');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'hold sweep: the database is unavailable; retrying quietly until it is back'],
      [30, 'hold sweep: the database is available again'],
      [40, 'hold sweep: the database is unavailable; retrying quietly until it is back'],
    ]);
    expect(lines[0]!.err?.message).toContain('ECONNREFUSED');
  });

  it('logs every other failure as an error, outage or not', () => {
    const { log, lines } = capturedLog();
    const runs = runLog(log, 'points expiry');
    runs.failed(refused(), 'points expiry failed');
    runs.failed(new Error('division by zero'), 'points expiry failed');
    runs.failed(new Error('division by zero'), 'points expiry failed');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'points expiry: the database is unavailable; retrying quietly until it is back'],
      [50, 'points expiry failed'],
      [50, 'points expiry failed'],
    ]);
  });
});
