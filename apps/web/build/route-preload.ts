import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** Vite's entry chunk is index.html's module script (src/main.tsx). */
const ENTRY = '/index.html';
const SHELL = '/src/app/authenticated-shell.tsx';
const LOGIN = '/src/features/login/login-page.tsx';
/** A screen whose route is its folder's name: `features/users/users-page.tsx` for /users. */
const PAGE = /\/src\/features\/([\w-]+)\/\1-page\.tsx$/;

function staticClosure(bundle: OutputBundle, start: string, stop: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name) || stop.has(name)) continue;
    seen.add(name);
    const chunk = bundle[name];
    if (chunk?.type === 'chunk') queue.push(...chunk.imports);
  }
  return [...seen];
}

/**
 * The script that starts the first screen's chunks from index.html itself. Without it they are found only
 * once the entry (65 kB) has arrived and run (`preloadInitialRoute`), one more round trip plus the entry's
 * download on a slow network before the screen's code even starts downloading. Which screen: /login
 * without a live session (the same test as `isSessionValid`), else the signed-in shell and the page of
 * the path's first segment (the dashboard for /).
 */
function preloadScript(files: string[], login: number[], shell: number[], pages: Record<string, number[]>) {
  const data = JSON.stringify({ files, login, shell, pages });
  return `(() => {
  try {
    const d = ${data};
    const token = localStorage.getItem('token');
    const expiry = Number(localStorage.getItem('tokenExpiry') || 'NaN');
    const live = !!token && token !== 'null' && token !== 'undefined' && (!(expiry === expiry) || expiry > Date.now());
    const parts = location.pathname.split('/').filter(Boolean);
    const wanted = !live || parts[0] === 'login' ? d.login : d.shell.concat(parts.length <= 1 ? d.pages[parts[0] || 'dashboard'] || [] : []);
    for (const i of wanted) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = '/' + d.files[i];
      document.head.appendChild(link);
    }
  } catch {}
})();`;
}

/** Writes the first screen's preload script into index.html, from the chunks the build produced. */
export function routePreload(): Plugin {
  return {
    name: 'loyalty:route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const facade = (suffix: string) => chunks.find((c) => c.facadeModuleId?.endsWith(suffix));
        const entry = facade(ENTRY);
        const shell = facade(SHELL);
        const login = facade(LOGIN);
        if (!entry || !shell || !login)
          throw new Error('route-preload: entry, shell or login chunk not found');
        const initial = new Set(staticClosure(bundle, entry.fileName, new Set()));
        const files: string[] = [];
        const indexes = (names: string[]) =>
          names.map((name) => {
            if (!files.includes(name)) files.push(name);
            return files.indexOf(name);
          });
        const shellFiles = staticClosure(bundle, shell.fileName, initial);
        const pages: Record<string, number[]> = {};
        for (const chunk of chunks) {
          const route = chunk.isDynamicEntry ? PAGE.exec(chunk.facadeModuleId ?? '')?.[1] : undefined;
          if (route)
            pages[route] = indexes(
              staticClosure(bundle, chunk.fileName, new Set([...initial, ...shellFiles])),
            );
        }
        const loginFiles = indexes(staticClosure(bundle, login.fileName, initial));
        const script = preloadScript(files, loginFiles, indexes(shellFiles), pages);
        // Before the stylesheet: a script placed after a pending stylesheet waits for it to arrive.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('route-preload: index.html has no module script');
        return `${html.slice(0, at)}<script>${script}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}
