import type { MouseEvent } from 'react';

export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to content": the first Tab stop of the shell, hidden until focused. It moves focus to the screen's
 * heading (or the main region while the screen loads), past the sidebar and the top bar. Handled in script
 * so the URL does not gain a #fragment the router would treat as a navigation.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    const heading = main.querySelector<HTMLElement>('h1[tabindex]');
    (heading ?? main).focus();
  };
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-foreground focus:shadow-md"
    >
      Skip to content
    </a>
  );
}
