import type { Paged } from '@loyalty/contracts';
import type { UseQueryResult } from '@tanstack/react-query';

/** Spreads a list query into DataTable's props: `<DataTable {...fromQuery(query)} … />`. */
export function fromQuery<TData>(query: UseQueryResult<Paged<TData>>) {
  return {
    page: query.data,
    isLoading: query.isPending,
    isFetching: query.isFetching && !query.isPending,
    error: query.error,
    onRefresh: () => {
      void query.refetch();
    },
  };
}
