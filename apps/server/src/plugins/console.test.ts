import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerConsole } from './console';
import { registerErrorHandling } from './errors';

const webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
afterAll(() => rmSync(webDist, { recursive: true, force: true }));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Loyalty Admin</title>');

/** The warnings an app logs while the console registers from `distDir`. */
async function warningsServing(distDir: string): Promise<string[]> {
  const lines: string[] = [];
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } });
  registerErrorHandling(app);
  await registerConsole(app, distDir);
  await app.ready();
  await app.close();
  return lines.map((line) => JSON.parse(line).msg);
}

describe('a WEB_DIST without a built console', () => {
  it('starts, and says in the log that WEB_DIST has no console', async () => {
    const missing = join(webDist, 'not-built');
    expect(await warningsServing(missing)).toEqual([
      `WEB_DIST: no built console in ${missing} (no index.html); the APIs are served, the console is not`,
    ]);
  });

  it('says nothing when the console is there', async () => {
    expect(await warningsServing(webDist)).toEqual([]);
  });
});
