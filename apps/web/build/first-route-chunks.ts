import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** A code-splitting group as rolldown takes it (`build.rolldownOptions.output.codeSplitting.groups`). */
interface ChunkGroup {
  name: string;
  test: (id: string) => boolean;
  priority: number;
  includeDependenciesRecursively: boolean;
}

const ENTRY = '/src/main.tsx';
const SHELL = '/src/app/authenticated-shell.tsx';
const FIRST_PAGE = '/src/features/dashboard/dashboard-page.tsx';
const LOGIN = '/src/features/login/login-page.tsx';
/** A package index that re-exports a whole library (lucide-react's icons, radix-ui's primitives). */
const BARREL_IMPORTS = 30;

const readSource = (id: string) => {
  try {
    return readFileSync(id, 'utf8');
  } catch {
    return ''; // a virtual module
  }
};

/**
 * What each name a barrel exports comes from: `export { a as B } from './b'`, `export * as C from 'c'`,
 * `import * as D from 'd'` (exported as D).
 */
function barrelExports(id: string, importedIds: readonly string[]): Map<string, string> {
  const code = readSource(id);
  const where = (spec: string) =>
    spec.startsWith('.')
      ? resolve(dirname(id), spec)
      : importedIds.find((imported) => imported.includes(`/node_modules/${spec}/`));
  const names = new Map<string, string>();
  for (const [, list = '', spec = ''] of code.matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    const target = where(spec);
    if (!target) continue;
    for (const part of list.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) names.set(name, target);
    }
  }
  for (const [, name = '', spec = ''] of code.matchAll(
    /(?:export|import)\s*\*\s*as\s+([\w$]+)\s+from\s*["']([^"']+)["']/g,
  )) {
    const target = where(spec);
    if (target) names.set(name, target);
  }
  return names;
}

/** The names a module imports with `import { … } from`, whatever the source. */
function importedNames(id: string): string[] {
  const names: string[] = [];
  for (const [, list = ''] of readSource(id).matchAll(
    /import\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from/g,
  ))
    for (const part of list.split(','))
      names.push(
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0] ?? '',
      );
  return names.filter(Boolean);
}

/**
 * Fewer, larger chunks on the way to the first signed-in screen. Left to itself the bundler gives every
 * set of lazy pages that shares a module its own chunk: opening /dashboard fetched the shell and the
 * dashboard in 23 files after the entry, many of 1–2 kB (an icon, a helper). The console is served over
 * HTTP/1.1, where a browser opens 6 connections per host, so 23 small requests take 4 round trips on a
 * slow mobile network (Lighthouse's slow 4G: 150 ms each) where 4 take one.
 *
 * The modules the shell and the dashboard import statically (and the entry does not) are grouped by who
 * else needs them: the shell's into one chunk (every signed-in screen loads the shell anyway), the
 * dashboard's that other screens share into another, and what the sign-in page shares with either into a
 * third, so /login does not download the shell. The lazy modules themselves (the route chunks the router
 * names) are left where they are. Computed from the module graph at each build, so it follows the code.
 */
export function firstRouteChunks(): { plugin: Plugin; groups: ChunkGroup[] } {
  const groupOf = new Map<string, string>();

  const plugin: Plugin = {
    name: 'loyalty:first-route-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const find = (suffix: string) => ids.find((id) => id.endsWith(suffix));
      const barrels = new Map<string, Map<string, string>>();
      for (const id of ids) {
        const imported = this.getModuleInfo(id)?.importedIds ?? [];
        if (id.includes('/node_modules/') && imported.length > BARREL_IMPORTS)
          barrels.set(id, barrelExports(id, imported));
      }
      // What a module really needs: through a barrel, only the modules of the names it imports (the
      // bundler drops the rest), or every icon and primitive would count as used by every screen.
      const needs = (id: string) =>
        (this.getModuleInfo(id)?.importedIds ?? []).flatMap((imported) => {
          const exports = barrels.get(imported);
          if (!exports) return [imported];
          return importedNames(id).flatMap((name) => exports.get(name) ?? []);
        });
      const staticClosure = (start: string | undefined, stop: ReadonlySet<string> = new Set()) => {
        const seen = new Set<string>();
        const queue = start ? [start] : [];
        while (queue.length > 0) {
          const id = queue.pop() as string;
          if (seen.has(id) || stop.has(id)) continue;
          seen.add(id);
          queue.push(...needs(id));
        }
        return seen;
      };
      const entry = staticClosure(find(ENTRY));
      const shell = staticClosure(find(SHELL), entry);
      const page = staticClosure(find(FIRST_PAGE), entry);
      const login = staticClosure(find(LOGIN), entry);
      // Every other lazily loaded module's static imports: what the dashboard shares with other screens.
      const lazyTargets = new Set(ids.flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []));
      const elsewhere = new Set<string>();
      for (const target of lazyTargets) {
        if ([SHELL, FIRST_PAGE].some((suffix) => target.endsWith(suffix))) continue;
        for (const id of staticClosure(target, entry)) elsewhere.add(id);
      }

      groupOf.clear();
      for (const id of [...shell, ...page]) {
        // The lazy modules keep their own chunks (the router and bench/first-route-js.ts name them).
        if (lazyTargets.has(id)) continue;
        if (login.has(id)) groupOf.set(id, 'first-route-common');
        else if (shell.has(id)) groupOf.set(id, 'shell-parts');
        else if (elsewhere.has(id)) groupOf.set(id, 'dashboard-parts');
      }
    },
  };

  const group = (name: string, priority: number): ChunkGroup => ({
    name,
    test: (id) => groupOf.get(id) === name,
    priority,
    // Their dependencies are in the entry or in another of these groups already; pulling them in would
    // move the entry's modules (React) out of it.
    includeDependenciesRecursively: false,
  });
  return {
    plugin,
    groups: [group('first-route-common', 30), group('shell-parts', 20), group('dashboard-parts', 10)],
  };
}
