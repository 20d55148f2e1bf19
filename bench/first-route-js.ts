/**
 * JS on the critical path of each first route, from the built console (`npm run build` first): the entry's
 * static-import closure plus the closure of the chunks the entry preloads for that route
 * (`preloadInitialRoute` in apps/web/src/app/router.tsx). Sizes are the files' raw bytes and the `.gz`/`.br`
 * siblings the build writes (what the server sends). Deterministic: run it on any machine.
 *
 *   npx tsx bench/first-route-js.ts [--dist apps/web/dist]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const distArg = process.argv.indexOf('--dist');
const dist = distArg > 0 ? (process.argv[distArg + 1] ?? '') : join(import.meta.dirname, '../apps/web/dist');
const assets = join(dist, 'assets');

// The chunks each first route starts at start-up, by the name rolldown gives them (the module's file name).
const routes: Record<string, string[]> = {
  '/login': ['login-page'],
  '/dashboard': ['authenticated-shell', 'dashboard-page'],
  '/pos-api': ['authenticated-shell', 'pos-api-page'],
};

const files = readdirSync(assets).filter((name) => name.endsWith('.js'));
const chunk = (prefix: string) => {
  const found = files.find((name) => new RegExp(`^${prefix}-[\\w-]{8}\\.js$`).test(name));
  if (!found) throw new Error(`no chunk ${prefix}-*.js in ${assets}`);
  return found;
};

// `import … from "./x.js"` and `import "./x.js"`, not `import("./x.js")` (loaded later, on demand).
const STATIC_IMPORT = /import\s*(?:[\w$*{},\s]+?\s*from\s*)?["']\.\/([\w.-]+\.js)["']/g;

function closure(start: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const code = readFileSync(join(assets, name), 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT)) if (match[1]) queue.push(match[1]);
  }
  return seen;
}

const size = (path: string) => (existsSync(path) ? statSync(path).size : undefined);
const kB = (bytes: number) => (bytes / 1000).toFixed(1);

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry: string | undefined = html.match(/<script type="module"[^>]*src="\/assets\/([\w.-]+\.js)"/)?.[1];
if (!entry) throw new Error('index.html has no module entry script');

console.log('| first route | JS files | raw kB | gzip kB | brotli kB |');
console.log('|---|---:|---:|---:|---:|');
for (const [route, starts] of Object.entries(routes)) {
  const names = closure([entry, ...starts.map(chunk)]);
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const name of names) {
    const path = join(assets, name);
    const plain = size(path) ?? 0;
    raw += plain;
    // A file the build left plain (too small to gain) is sent plain.
    gzip += size(`${path}.gz`) ?? plain;
    brotli += size(`${path}.br`) ?? plain;
  }
  console.log(`| ${route} | ${names.size} | ${kB(raw)} | ${kB(gzip)} | ${kB(brotli)} |`);
}
