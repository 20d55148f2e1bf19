import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run bench:export [-- --query 'format=csv']`: the CSV export of the operations list on the benchmark
 * database (`bench:dataset`), through a real server process on PostgreSQL: the time to the last byte, the
 * bytes, and the server's RSS before, its peak during the download (VmHWM) and the rows/s. Anchor in the
 * same run: PostgreSQL writing the same rows (the list's join, newest first) as CSV itself, by psql
 * `\copy … to stdout`, which is what the export costs without the HTTP server.
 */
const PORT = 4199;

function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { query: { type: 'string', default: '' }, 'max-old-space': { type: 'string' } },
  });
  // A cap on the server's V8 heap: an export that needed memory growing with its size would fail under it.
  const heapCap = values['max-old-space'] ? [`--max-old-space-size=${values['max-old-space']}`] : [];
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/loyalty_bench';
  const password = 'bench-export-password';
  // tsx's loader runs in the same process as the server: `node --import tsx`, so the pid is the server's.
  const server = spawn(process.execPath, [...heapCap, '--import', 'tsx', 'apps/server/src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(PORT),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-export-')),
      ADMIN_USERNAME: 'bench-export-admin',
      ADMIN_PASSWORD: password,
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      HOLD_SWEEP_INTERVAL_MS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    for (let i = 0; ; i++) {
      const ready = await fetch(`${base}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ready) break;
      if (i > 600) throw new Error('server not ready after 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The first admin exists only on a database without users; a rerun finds it, or a bench user.
    const login = await fetch(`${base}/auth/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench-export-admin', password }),
    });
    if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const { token } = (await login.json()) as { token: string };
    const before = rssOf(server.pid!);
    // Resets the peak (VmHWM) to the current RSS, so the peak read after is the download's.
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');

    const started = performance.now();
    const res = await fetch(`${base}/api/v1/operations?format=csv&${values.query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    const after = rssOf(server.pid!);

    console.log(`load average ${loadavg().map((l) => l.toFixed(1))}`);
    console.log(
      `export: HTTP ${res.status}, ${lines - 1} rows, ${mb(bytes)} in ${seconds.toFixed(1)} s ` +
        `(${Math.round((lines - 1) / seconds)} rows/s); server RSS ${mb(before.rss)} before, ` +
        `peak ${mb(after.peak)} during the download, ${mb(after.rss)} after ${heapCap.join(' ')}`,
    );
    if (values.query) return; // the anchor is the unfiltered list

    const copyStarted = performance.now();
    const copy = spawnSync(
      'psql',
      [
        url,
        '-qc',
        `\\copy (select o.*, p.name, p.address from operations o left join pos_keys p on p.id = o.pos_id
          order by o.created_at desc, o.id desc) to stdout with csv header`,
      ],
      { maxBuffer: 4 * 1024 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const copySeconds = (performance.now() - copyStarted) / 1000;
    console.log(
      `anchor: psql \\copy of the same rows as CSV: ${mb(copy.stdout.length)} in ${copySeconds.toFixed(1)} s`,
    );
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
