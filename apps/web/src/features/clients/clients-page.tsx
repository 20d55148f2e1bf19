import { type ClientLookupResponse, clientLookupParams } from '@loyalty/contracts';
import { SearchIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { FieldError } from '@/components/feedback/field-error';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useZodForm } from '@/lib/form';
import type { LookupSection as LookupSectionName } from './clients-api';
import { accountLookupColumns, cardLookupColumns, operationLookupColumns } from './lookup-columns';
import { LookupSection } from './lookup-section';
import { type LookupResult, useClientLookup } from './use-client-lookup';

/** One section's rows, total and paging, from the search's result. */
function sectionState<K extends LookupSectionName>(
  lookup: ReturnType<typeof useClientLookup>,
  result: LookupResult,
  key: K,
) {
  return {
    // Spelled out: TypeScript widens `result.data[key]` to the union of the three sections.
    rows: result.data[key].content as ClientLookupResponse[K]['content'],
    total: result.data[key].total,
    page: result.pages[key],
    loading: lookup.isPaging(key),
    onPageChange: (page: number) => lookup.goToPage(key, page),
  };
}

/**
 * Spec section 2 "Client Lookup"; the search text is checked by the contract's own rule (blank is refused).
 * The searched text lives in the URL (`/clients?id=…`): Back from a client's page, a reload or a shared link
 * shows the same client again, and Back and Forward step through earlier searches.
 */
export function ClientsPage() {
  const lookup = useClientLookup();
  const [searchParams, setSearchParams] = useSearchParams();
  const urlTerm = searchParams.get('id')?.trim() ?? '';
  const form = useZodForm(clientLookupParams, { defaultValues: { id: urlTerm } });
  const error = form.formState.errors.id?.message;
  // The term the user just submitted: its search, run when the URL has taken it, announces its result.
  const submitted = useRef<string | null>(null);
  const { search, clear } = lookup;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the URL's term changes, not when the form does
  useEffect(() => {
    form.reset({ id: urlTerm });
    if (!urlTerm) {
      clear();
      return;
    }
    search(urlTerm, { announce: submitted.current === urlTerm });
    submitted.current = null;
  }, [urlTerm]);

  const onSubmit = form.handleSubmit(({ id }) => {
    if (lookup.isSearching) return;
    if (id === urlTerm) {
      search(id);
      return;
    }
    submitted.current = id;
    setSearchParams({ id });
  });

  const { result } = lookup;
  return (
    <>
      <PageHeader
        title="Client Lookup"
        description="Find a client's accounts, cards and recent operations by card number, client ID or account ID."
      />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <div className="flex w-full max-w-2xl flex-col gap-2 sm:flex-row">
          <div className="relative flex-1">
            <SearchIcon
              className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              aria-label="Card number, client ID or account ID"
              placeholder="Card number, client ID or account ID"
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
              className="pl-8"
              {...form.register('id')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'client-lookup-error' : undefined}
            />
          </div>
          <Button type="submit" pending={lookup.isSearching}>
            {lookup.isSearching ? 'Loading...' : 'Search'}
          </Button>
        </div>
        <FieldError id="client-lookup-error" message={error} />
      </form>
      {result ? (
        <div className="grid min-w-0 gap-6" aria-live="polite">
          <LookupSection
            title="Accounts"
            {...sectionState(lookup, result, 'accounts')}
            columns={accountLookupColumns}
            getRowId={(a) => a.id}
            emptyText="No accounts found"
          />
          <LookupSection
            title="Cards"
            {...sectionState(lookup, result, 'cards')}
            columns={cardLookupColumns}
            getRowId={(c) => c.id}
            emptyText="No cards found"
          />
          <LookupSection
            title="Recent Operations"
            {...sectionState(lookup, result, 'operations')}
            columns={operationLookupColumns}
            getRowId={(o) => o.id}
            emptyText="No operations found"
          />
        </div>
      ) : (
        <p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">
          Search for a client to see their accounts, cards and recent operations.
        </p>
      )}
    </>
  );
}
