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

const DARK_STYLE_ID = 'console-dark-theme';

/**
 * Swagger UI has no dark theme. In the console's dark theme the frame's document is inverted (hues turned
 * back, so the method colours keep their meaning) rather than leaving a white page in a dark screen.
 */
export function applyFrameTheme(frame: HTMLIFrameElement | null, dark: boolean): void {
  let doc: Document | null | undefined;
  try {
    doc = frame?.contentDocument;
  } catch {
    return;
  }
  if (!doc?.head) return;
  doc.getElementById(DARK_STYLE_ID)?.remove();
  if (!dark) return;
  const style = doc.createElement('style');
  style.id = DARK_STYLE_ID;
  style.textContent = 'html{filter:invert(0.9) hue-rotate(180deg);background:#fff}';
  doc.head.append(style);
}
