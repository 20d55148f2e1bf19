import { existsSync } from 'node:fs';

/**
 * Resolves the Chromium the tests drive. `CHROMIUM_PATH` wins (e.g. Debian's /usr/bin/chromium);
 * otherwise the headless Chromium shipped inside the @sparticuz/chromium package, so a fresh machine
 * needs no system install. Workers read the path from the environment.
 */
export default async function globalSetup() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return;
  const { default: chromium } = await import('@sparticuz/chromium');
  process.env.CHROMIUM_PATH = await chromium.executablePath();
}
