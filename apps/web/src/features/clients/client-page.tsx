import { AlertCircleIcon, SearchXIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { PageSkeleton } from '@/components/layout/page-skeleton';
import { ClientLink, clientPath } from '@/components/links/client-link';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { getServerMessage } from '@/lib/handle-server-error';
import { formatPoints } from '@/lib/points';
import { ClientView } from './client-view';
import { useClientTarget } from './use-client-target';

/** The one page of a client (issue 16): where every client ID, account id and card number links to. */
export function ClientPage() {
  const { ref = '' } = useParams();
  const target = useClientTarget(ref);

  switch (target.state) {
    case 'redirect':
      return <Navigate to={clientPath(target.accountId)} replace />;
    case 'account':
      return <ClientView account={target.account} />;
    case 'loading':
      return (
        <>
          <PageHeader title="Client" description={<span className="sr-only">Loading client</span>} />
          <PageSkeleton />
        </>
      );
    case 'none':
      return (
        <NotFound text={ref}>
          <Button asChild variant="outline" size="sm">
            <Link to="/clients">Open Client Lookup</Link>
          </Button>
        </NotFound>
      );
    case 'many':
      return (
        <>
          <PageHeader title="Client" description={`“${ref}” names ${target.total} clients. Choose one:`} />
          <ul className="grid max-w-2xl gap-2">
            {target.accounts.map((account) => (
              <li key={account.id} className="flex flex-wrap items-baseline gap-x-3 rounded-lg border p-3">
                <ClientLink to={account.id} className="font-medium">
                  {account.clientId}
                </ClientLink>
                <span className="text-sm text-muted-foreground tabular-nums">
                  {formatPoints(account.balance)} · since {formatDate(account.createdAt)}
                </span>
              </li>
            ))}
          </ul>
        </>
      );
    case 'error':
      return (
        <>
          <PageHeader title="Client" />
          <div role="alert" className="flex max-w-2xl flex-col items-start gap-3 rounded-xl border p-6">
            <p className="flex items-center gap-2 font-medium">
              <AlertCircleIcon className="size-4 text-destructive" aria-hidden="true" />
              Failed to load client data
            </p>
            {isApiError(target.error) && (
              <p className="text-sm text-muted-foreground">{getServerMessage(target.error)}</p>
            )}
            <Button variant="outline" size="sm" onClick={target.retry}>
              Try again
            </Button>
          </div>
        </>
      );
  }
}

function NotFound({ text, children }: { text: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title="Client not found" />
      <div className="flex max-w-2xl flex-col items-start gap-3 rounded-xl border border-dashed p-6">
        <p className="flex items-center gap-2">
          <SearchXIcon className="size-4 text-muted-foreground" aria-hidden="true" />
          <span>
            No client has the client ID, card number or account ID{' '}
            <span className="font-mono break-all">{text}</span>.
          </span>
        </p>
        {children}
      </div>
    </>
  );
}
