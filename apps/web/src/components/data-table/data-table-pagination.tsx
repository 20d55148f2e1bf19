import type { Table } from '@tanstack/react-table';
import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { usePagerFocus } from '@/lib/use-pager-focus';

export interface DataTablePaginationProps<TData> {
  table: Table<TData>;
  /** Undefined until the first page has arrived: no count is shown then rather than a made-up 'of 1 (0 total)'. */
  totalElements: number | undefined;
  pageSizeOptions?: number[];
  disabled?: boolean;
}

export function DataTablePagination<TData>({
  table,
  totalElements,
  pageSizeOptions,
  disabled,
}: DataTablePaginationProps<TData>) {
  const labelId = useId();
  const { pageIndex, pageSize } = table.getState().pagination;
  const pageCount = Math.max(table.getPageCount(), 1);
  const previousDisabled = Boolean(disabled) || !table.getCanPreviousPage();
  const nextDisabled = Boolean(disabled) || !table.getCanNextPage();
  const { previous, next, press } = usePagerFocus(previousDisabled, nextDisabled);

  return (
    <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 px-1 text-sm">
      <div className="ml-auto flex flex-wrap items-center gap-x-4 gap-y-2">
        {pageSizeOptions && (
          <div className="flex items-center gap-2">
            <span id={labelId} className="text-muted-foreground">
              Rows per page
            </span>
            <Select value={String(pageSize)} onValueChange={(value) => table.setPageSize(Number(value))}>
              <SelectTrigger aria-labelledby={labelId} className="h-8 w-[4.5rem]">
                <SelectValue />
              </SelectTrigger>
              <SelectContent side="top">
                {pageSizeOptions.map((size) => (
                  <SelectItem key={size} value={String(size)}>
                    {size}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        )}
        <span className="text-muted-foreground" data-testid="page-position">
          Page {pageIndex + 1}
          {totalElements !== undefined && (
            <>
              {' '}
              of {pageCount}
              <span className="sr-only"> ({totalElements} total)</span>
            </>
          )}
        </span>
        <div className="flex items-center gap-2">
          <Button
            ref={previous}
            variant="outline"
            size="sm"
            onClick={(event) => press(event.currentTarget, () => table.previousPage())}
            disabled={previousDisabled}
          >
            <ChevronLeftIcon />
            Previous
          </Button>
          <Button
            ref={next}
            variant="outline"
            size="sm"
            onClick={(event) => press(event.currentTarget, () => table.nextPage())}
            disabled={nextDisabled}
          >
            Next
            <ChevronRightIcon />
          </Button>
        </div>
      </div>
    </div>
  );
}
