import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/verify-ledger.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** `npm run verify-ledger` against `databaseUrl`: every balance recomputed from the ledger. */
export function verifyLedger(databaseUrl: string): { ok: boolean; output: string } {
  const result = spawnSync(process.execPath, ['--import', tsxLoader, script], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      DATA_DIR: '/nonexistent',
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}
