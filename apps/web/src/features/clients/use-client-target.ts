import type { Account } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { isApiError } from '@/lib/api-client';
import { clientAccountQuery, isAccountId, resolveClientQuery } from './client-api';

export type ClientTarget =
  | { state: 'loading' }
  | { state: 'error'; error: unknown; retry: () => void }
  | { state: 'none' }
  | { state: 'many'; accounts: Account[]; total: number }
  /** The page's address is not the account id: go there (one address per client). */
  | { state: 'redirect'; accountId: string }
  | { state: 'account'; account: Account; isFetching: boolean };

/**
 * What `/clients/:ref` shows. An account id (what every table links with) is read directly; anything else
 * — a client ID, a card number, the id of a card or an operation (audit entries) — or an id that is not an
 * account's is resolved by the client lookup, and a single match redirects to its account id.
 */
export function useClientTarget(ref: string): ClientTarget {
  const direct = isAccountId(ref);
  const account = useQuery(clientAccountQuery(ref.toLowerCase(), direct));
  const notAnAccount = isApiError(account.error) && account.error.status === 404;
  const resolve = useQuery(resolveClientQuery(ref, !direct || notAnAccount));

  if (direct && !notAnAccount) {
    if (account.data) {
      if (account.data.id !== ref) return { state: 'redirect', accountId: account.data.id };
      return { state: 'account', account: account.data, isFetching: account.isFetching };
    }
    if (account.error) return { state: 'error', error: account.error, retry: () => void account.refetch() };
    return { state: 'loading' };
  }
  if (resolve.error) return { state: 'error', error: resolve.error, retry: () => void resolve.refetch() };
  if (!resolve.data) return { state: 'loading' };
  const { content, total } = resolve.data.accounts;
  if (total === 0) return { state: 'none' };
  if (total === 1 && content[0]) return { state: 'redirect', accountId: content[0].id };
  return { state: 'many', accounts: content, total };
}
