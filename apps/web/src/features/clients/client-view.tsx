import type { Account } from '@loyalty/contracts';
import { PageHeader } from '@/components/layout/page-header';
import { formatDate } from '@/lib/format';
import { ClientCardsSection } from './client-cards-section';
import { ClientOperationsSection, ClientReceiptsSection } from './client-operations-sections';
import { ClientSummary } from './client-summary';

/**
 * A client's page: the account's figures first, then one section per list, each paged by the server.
 * Sections stack in a single column so new ones (points lots and the expiry forecast of PROGRAMME-API.md
 * §1, after the summary) slot in as siblings without reshaping the page; nothing is drawn for them before
 * the server has them.
 */
export function ClientView({ account }: { account: Account }) {
  return (
    <>
      <PageHeader
        title={account.clientId}
        description={
          <>
            Client since {formatDate(account.createdAt)}
            <span className="block font-mono text-xs break-all">Account {account.id}</span>
          </>
        }
      />
      <ClientSummary account={account} />
      <ClientCardsSection account={account} />
      <ClientOperationsSection account={account} />
      <ClientReceiptsSection account={account} />
    </>
  );
}
