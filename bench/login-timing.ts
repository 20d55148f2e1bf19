/**
 * `npm run bench:login-timing`: does a failed sign-in take as long for an unknown username as for a known one?
 *
 * The service verifies the password against a dummy Argon2 hash when the user does not exist, so the answer's
 * timing does not tell whether a username is registered (auth.test.ts asserts that the dummy verification runs;
 * this measures what it buys). The real app (buildApp + inject) on an in-memory PGlite; interleaved samples of
 * a wrong password for a known user (the anchor) and for unknown users, login attempts cleared before each so
 * the limiter never answers. Prints p50 and min of each path and their ratio (≈ 1 is the goal; without the
 * dummy verification it is a few percent).
 *
 * Environment: BENCH_SAMPLES (40).
 */
import { cpus, loadavg } from 'node:os';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { createUser } from '../apps/server/src/modules/users/users.service';

async function main() {
  const samples = Number(process.env.BENCH_SAMPLES ?? 40);
  const database = await openDatabase({});
  await migrateToLatest(database.db);
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }),
    database,
    secrets: { jwtSecret: 'bench-secret-that-is-long-enough-0123456789', posKeySecret: '0'.repeat(64) },
  });
  await app.ready();
  await createUser(database.db, null, {
    username: 'known',
    password: 'the-right-password',
    email: null,
    fullName: null,
    role: 'VIEWER',
  });

  async function failedLogin(username: string): Promise<number> {
    await database.db.deleteFrom('login_attempts').execute();
    const start = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/auth/api/v1/login',
      payload: { username, password: 'a-wrong-password' },
    });
    const ms = performance.now() - start;
    if (res.statusCode !== 401) throw new Error(`expected 401, got ${res.statusCode}: ${res.body}`);
    return ms;
  }

  const loadBefore = loadavg();
  await failedLogin('known');
  await failedLogin('warm-up-unknown');
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < samples; i++) {
    known.push(await failedLogin('known'));
    unknown.push(await failedLogin(`unknown-${i}`));
  }
  await app.close();
  await database.close();

  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const row = (name: string, xs: number[]) =>
    `| ${name} | ${p50(xs).toFixed(1)} | ${Math.min(...xs).toFixed(1)} | ${(p50(xs) / p50(known)).toFixed(2)} |`;
  console.log(
    `${cpus().length} cores (${cpus()[0]?.model}), Node ${process.version}, ${samples} samples each`,
  );
  console.log(`load average before: ${loadBefore.map((l) => l.toFixed(1)).join(' / ')}`);
  console.log('| failed sign-in | p50 ms | min ms | p50 / known p50 |');
  console.log('|---|---:|---:|---:|');
  console.log(row('known user, wrong password (anchor)', known));
  console.log(row('unknown user', unknown));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
