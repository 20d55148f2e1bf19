import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';

/**
 * The look of a link inside text or a table cell: always underlined (dotted) so a link is told from text
 * without hovering, solid on hover and focus, with the focus ring. Every such link (client, operation,
 * import) wears it.
 */
export const TEXT_LINK_CLASS = cn(
  'rounded-sm underline decoration-muted-foreground/60 decoration-dotted underline-offset-4 outline-none',
  'hover:decoration-current hover:decoration-solid focus-visible:decoration-solid focus-visible:ring-[3px] focus-visible:ring-ring/50',
);

/** Operations, searched by an operation's id (a till's operationId or the uuid): the list opens on it. */
export function operationSearchPath(id: string): string {
  return `/operations?${new URLSearchParams({ search: id })}`;
}

/** A link to one operation in Operations (a hold a capture names, a lot's credit, what took a lot's points). */
export function OperationLink({
  id,
  className,
  children,
}: {
  id: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link to={operationSearchPath(id)} className={cn(TEXT_LINK_CLASS, className)}>
      {children}
    </Link>
  );
}
