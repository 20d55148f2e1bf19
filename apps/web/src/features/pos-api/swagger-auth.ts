/** The bits of Swagger UI's global `ui` (set by /swagger-init.js) that the POS API screen uses. */
interface SwaggerUi {
  specSelectors: { securityDefinitions: () => unknown };
  preauthorizeApiKey: (scheme: string, value: string) => void;
  authActions: { logout: (schemes: string[]) => void };
}

/** The security scheme of the POS API in /openapi.json (header X-API-Key). */
export const POS_SCHEME = 'apiKey';

function swaggerOf(frame: HTMLIFrameElement | null): SwaggerUi | null {
  try {
    const ui = (frame?.contentWindow as (Window & { ui?: SwaggerUi }) | null | undefined)?.ui;
    return ui?.specSelectors?.securityDefinitions() ? ui : null;
  } catch {
    // A frame of another origin (never ours) cannot be reached.
    return null;
  }
}

/**
 * Waits until Swagger UI in the frame has loaded the spec (its security schemes exist only then), then
 * runs `apply`. Returns a cancel function. Gives up quietly after `timeoutMs`: Authorize still works by hand.
 */
export function whenSwaggerReady(
  frame: HTMLIFrameElement | null,
  apply: (ui: SwaggerUi) => void,
  timeoutMs = 10_000,
): () => void {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = () => {
    const ui = swaggerOf(frame);
    if (ui) apply(ui);
    else if (Date.now() - started < timeoutMs) timer = setTimeout(attempt, 150);
  };
  attempt();
  return () => clearTimeout(timer);
}

/**
 * The documentation page styles itself for the console's two themes (apps/web/pos-api-docs/pos-api-docs.css) and reads
 * the stored theme when it loads; a switch of theme while it is open is passed on here.
 */
export function applyFrameTheme(frame: HTMLIFrameElement | null, dark: boolean): void {
  let root: HTMLElement | null | undefined;
  try {
    root = frame?.contentDocument?.documentElement;
  } catch {
    return;
  }
  if (!root) return;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}
