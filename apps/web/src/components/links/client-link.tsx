import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';
import { TEXT_LINK_CLASS } from './text-link';

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
    <Link data-slot="client-link" to={clientPath(to)} className={cn(TEXT_LINK_CLASS, className)}>
      {children}
    </Link>
  );
}
