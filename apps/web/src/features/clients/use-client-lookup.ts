import type { ClientLookupResponse } from '@loyalty/contracts';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { firstPages, type LookupPages, type LookupSection, lookupClient } from './clients-api';

export interface LookupResult {
  term: string;
  data: ClientLookupResponse;
  pages: LookupPages;
}

/** Spec section 8: the toast of a failed page change, per section. */
const pageErrorTitle: Record<LookupSection, string> = {
  accounts: 'Failed to load accounts page',
  cards: 'Failed to load cards page',
  operations: 'Failed to load operations page',
};

interface PageRequest {
  term: string;
  section: LookupSection;
  pages: LookupPages;
}

function useSectionPager(
  section: LookupSection,
  apply: (request: PageRequest, data: ClientLookupResponse) => void,
) {
  return useMutation({
    mutationFn: (request: PageRequest) => lookupClient(request.term, request.pages),
    meta: { errorTitle: pageErrorTitle[section], readOnly: true },
    onSuccess: (data, request) => apply(request, data),
  });
}

/**
 * The search runs once with every section on page 0; a page change asks again with only that section's
 * page moved and replaces only that section, so the other two stay where the user left them.
 */
export function useClientLookup() {
  const [result, setResult] = useState<LookupResult | null>(null);
  // A late answer for an older search must not overwrite a newer one.
  const generation = useRef(0);

  const search = useMutation({
    mutationFn: ({ term }: { term: string; generation: number; announce: boolean }) =>
      lookupClient(term, firstPages),
    // A search (a GET run as a mutation for its toasts): leaving while it runs is not asked about.
    meta: { errorTitle: 'Failed to load client data', readOnly: true },
    onSuccess: (data, variables) => {
      if (variables.generation !== generation.current) return;
      setResult({ term: variables.term, data, pages: firstPages });
      if (variables.announce) toast.success('Client data loaded successfully');
    },
    // The last search failed: the results of the one before are not this client's, so they go (the toast says why).
    onError: (_error, variables) => {
      if (variables.generation === generation.current) setResult(null);
    },
  });

  const apply = (request: PageRequest, data: ClientLookupResponse) =>
    setResult((current) => {
      if (!current || current.term !== request.term) return current;
      const page = request.pages[request.section];
      return {
        ...current,
        data: { ...current.data, [request.section]: data[request.section] },
        pages: { ...current.pages, [request.section]: page },
      };
    });

  const pagers: Record<LookupSection, ReturnType<typeof useSectionPager>> = {
    accounts: useSectionPager('accounts', apply),
    cards: useSectionPager('cards', apply),
    operations: useSectionPager('operations', apply),
  };

  return {
    result,
    isSearching: search.isPending,
    /** `announce: false` for a search the user did not just ask for (the page restored from its URL). */
    search: (term: string, { announce = true }: { announce?: boolean } = {}) => {
      generation.current += 1;
      search.mutate({ term, generation: generation.current, announce });
    },
    /** The URL names no client any more (Back to the empty page): nothing shown, and a late answer dropped. */
    clear: () => {
      generation.current += 1;
      setResult(null);
    },
    goToPage: (section: LookupSection, page: number) => {
      if (!result) return;
      pagers[section].mutate({ term: result.term, section, pages: { ...result.pages, [section]: page } });
    },
    isPaging: (section: LookupSection) => pagers[section].isPending,
  };
}
