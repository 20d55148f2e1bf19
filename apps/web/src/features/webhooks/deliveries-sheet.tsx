import { type Delivery, deliveryStatuses, type Webhook } from '@loyalty/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { InboxIcon } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { CopyButton } from '@/components/data-table/copy-button';
import { DataTablePagination } from '@/components/data-table/data-table-pagination';
import { ExportListButton } from '@/components/data-table/export-list-button';
import { ErrorWithRetry } from '@/components/feedback/error-with-retry';
import { FilterSelect } from '@/components/ui/option-select';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { isStaleDataError } from '@/lib/api-client';
import { getServerMessage } from '@/lib/handle-server-error';
import { useReturnFocus } from '@/lib/use-return-focus';
import { DeliveryItem } from './delivery-item';
import { refreshWhenStale } from './use-webhook-mutations';
import {
  DELIVERIES_SHOWN,
  type DeliveriesView,
  deliveriesQuery,
  deliveriesUrl,
  retryDelivery,
  webhooksKeys,
} from './webhooks-api';

const statusOptions = deliveryStatuses.map((status) => ({
  value: status,
  label: status[0]!.toUpperCase() + status.slice(1),
}));

/** "The newest 50 of 55 failed deliveries." on the first page; where a later page is in the whole. */
function rangeText(view: DeliveriesView, shown: number, total: number): string {
  const what = view.status ? `${view.status} deliveries` : 'deliveries';
  if (view.page === 0) return `The newest ${shown} of ${total} ${what}.`;
  const first = view.page * DELIVERIES_SHOWN + 1;
  return `${first}–${first + shown - 1} of ${total} ${what}, newest first.`;
}

function DeliveriesList({ endpoint }: { endpoint: Webhook }) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<DeliveriesView>({ page: 0, status: undefined });
  const query = useQuery(deliveriesQuery(endpoint.id, view));
  // The view of the rows on screen: while the next page or filter loads, the previous rows stay (placeholder)
  // and their label with them ("51–100 of 55" over page 1's rows, before).
  const [shownView, setShownView] = useState(view);
  const answered = query.data !== undefined && !query.isPlaceholderData;
  if (answered && shownView !== view) setShownView(view);
  const list = useRef<HTMLDivElement>(null);
  // A page emptied meanwhile (its pending deliveries finished, or were pruned) falls back to the last one.
  const emptied = answered && view.page > 0 && query.data.content.length === 0;
  const lastPage = Math.max((query.data?.totalPages ?? 1) - 1, 0);
  useEffect(() => {
    if (emptied) setView((current) => ({ ...current, page: Math.min(current.page, lastPage) }));
  }, [emptied, lastPage]);
  // The endpoint was deleted since the list was loaded (404, toasted): the list reloads without it, and
  // the drawer, open on an endpoint the list no longer has, closes.
  // Only the list: reloading these deliveries too would ask again for what is gone.
  const gone = isStaleDataError(query.error);
  useEffect(() => {
    if (gone) void queryClient.invalidateQueries({ queryKey: webhooksKeys.list });
  }, [gone, queryClient]);
  const retry = useMutation({
    mutationFn: retryDelivery,
    meta: { errorTitle: 'Failed to retry the delivery' },
    onSuccess: () => {
      toast.success('Delivery queued: it is sent again now');
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.all });
    },
    // The delivery (pruned) or its endpoint (deleted) is gone: the drawer and the list reload.
    onError: (error) => void refreshWhenStale(queryClient, error),
  });
  // A table only to drive the console's shared Previous / Next (the rows are drawn as cards below).
  const pager = useReactTable<Delivery>({
    data: query.data?.content ?? [],
    columns: [],
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    rowCount: query.data?.totalElements ?? 0,
    state: { pagination: { pageIndex: view.page, pageSize: DELIVERIES_SHOWN } },
    onPaginationChange: (update) => {
      const next =
        typeof update === 'function' ? update({ pageIndex: view.page, pageSize: DELIVERIES_SHOWN }) : update;
      setView((current) => ({ ...current, page: next.pageIndex }));
      list.current?.scrollTo({ top: 0 });
    },
  });

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div role="status" className="grid gap-3" aria-label="Loading deliveries">
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  } else if (query.error) {
    body = (
      <ErrorWithRetry
        message={`Failed to load deliveries: ${getServerMessage(query.error)}`}
        onRetry={() => void query.refetch()}
      />
    );
  } else if (query.data.content.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
        <InboxIcon className="size-6" aria-hidden="true" />
        <p>
          {shownView.status
            ? `No ${shownView.status} deliveries.`
            : 'No deliveries yet. Send a test event to try the endpoint.'}
        </p>
      </div>
    );
  } else {
    const { content, totalElements } = query.data;
    body = (
      <>
        <ul className="grid gap-3" aria-label="Deliveries">
          {content.map((delivery: Delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              onRetry={retry.mutate}
              retrying={retry.isPending && retry.variables?.id === delivery.id}
            />
          ))}
        </ul>
        {totalElements > DELIVERIES_SHOWN && (
          <p className="text-sm text-muted-foreground">
            {rangeText(shownView, content.length, totalElements)}
          </p>
        )}
      </>
    );
  }

  return (
    <>
      <div className="flex flex-wrap items-center gap-2 border-b px-4 py-3">
        <FilterSelect
          label="Filter by status"
          allLabel="All statuses"
          options={statusOptions}
          className="w-40"
          value={view.status}
          onChange={(status) => setView({ page: 0, status })}
        />
        <div className="ml-auto">
          <ExportListButton name="webhook-deliveries" url={deliveriesUrl(endpoint.id, view.status)} />
        </div>
      </div>
      <div ref={list} className="grid flex-1 content-start gap-3 overflow-y-auto p-4">
        {body}
      </div>
      <div className="border-t px-4 py-3">
        <DataTablePagination
          table={pager}
          totalElements={query.data?.totalElements}
          disabled={query.isPending}
        />
      </div>
    </>
  );
}

/** Issue 12: an endpoint's deliveries, newest first, a page at a time, refreshed while any is pending. */
export function DeliveriesSheet({ endpoint, onClose }: { endpoint: Webhook | null; onClose: () => void }) {
  const returnFocus = useReturnFocus();
  const queryClient = useQueryClient();
  const close = () => {
    // What was watched here (a test going through, a retry) can change the list's last delivery and rate
    // (they are over the endpoint's latest deliveries: a retry of an older one does not show there).
    void queryClient.invalidateQueries({ queryKey: webhooksKeys.list });
    onClose();
  };
  return (
    <Sheet open={endpoint !== null} onOpenChange={(open) => !open && close()}>
      <SheetContent className="w-full gap-0 sm:max-w-xl" {...returnFocus}>
        <SheetHeader className="border-b pr-10">
          <SheetTitle>Deliveries</SheetTitle>
          {/* Two lines at most: a URL of 1,800 characters filled a phone's height and pushed the list and its
              pager out of reach (the sheet does not scroll; its list does). The whole URL is in the title, in
              the dialog's description for a screen reader, and a copy button away. */}
          <div className="flex min-w-0 items-start gap-1">
            <SheetDescription className="line-clamp-2 min-w-0 break-all" title={endpoint?.url}>
              {endpoint?.url}
            </SheetDescription>
            {endpoint && <CopyButton value={endpoint.url} label="endpoint URL" className="-my-1.5" />}
          </div>
        </SheetHeader>
        {endpoint && <DeliveriesList key={endpoint.id} endpoint={endpoint} />}
      </SheetContent>
    </Sheet>
  );
}
