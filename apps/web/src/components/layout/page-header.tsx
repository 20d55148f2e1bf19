import { type ReactNode, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { passHeadingFocus, takeHeadingFocus } from '@/lib/route-focus';

/**
 * The heading block of a screen: its title (the spec's words) as the page's h1 and the document title.
 * After a navigation inside the console the h1 takes focus (lib/route-focus.ts), which also announces it.
 */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    if (takeHeadingFocus(pathname)) heading.current?.focus();
  }, [pathname]);
  // A layout cleanup runs before the h1 leaves the document, while it can still hold focus.
  useLayoutEffect(() => {
    const node = heading.current;
    return () => {
      if (node && document.activeElement === node) passHeadingFocus(pathname);
    };
  }, [pathname]);
  useEffect(() => {
    document.title = `${title} · Loyalty Admin`;
  }, [title]);

  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0 space-y-1">
        {/* Broken anywhere if it must: a client page's title is the client ID, which may be an e-mail address
            or 100 characters without a space, and it widened the page past a 320 px phone (WCAG 1.4.10). */}
        <h1
          ref={heading}
          tabIndex={-1}
          data-focus-target
          className="text-2xl font-bold tracking-tight wrap-anywhere"
        >
          {title}
        </h1>
        {description && <p className="text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
