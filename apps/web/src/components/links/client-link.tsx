import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';

/**
 * The client page of whatever names a client: an account id, a client ID, a card number, or the id of a
 * card or an operation (the page resolves it with the client lookup and settles on the account id).
 */
export function clientPath(ref: string): string {
  return `/clients/${encodeURIComponent(ref)}`;
}

/**
 * A link to one client's page, for the content of a table cell or a line of text. It keeps its children's
 * look (a card number stays mono, a truncated id stays truncated) and adds the link affordance: underline on
 * hover and the focus ring. The children are the link's name, so they should be the visible identifier.
 */
export function ClientLink({
  to,
  className,
  children,
}: {
  /** Anything the client page resolves; usually the account id. */
  to: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link
      data-slot="client-link"
      to={clientPath(to)}
      className={cn(
        // Always underlined (dotted) so a link is told from text without hovering; solid on hover and focus.
        'rounded-sm underline decoration-muted-foreground/60 decoration-dotted underline-offset-4 outline-none',
        'hover:decoration-current hover:decoration-solid focus-visible:decoration-solid focus-visible:ring-[3px] focus-visible:ring-ring/50',
        className,
      )}
    >
      {children}
    </Link>
  );
}
