import type { Table } from '@tanstack/react-table';
import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

export interface DataTablePaginationProps<TData> {
  table: Table<TData>;
  totalElements: number;
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
  // With a rows-per-page select the pager needs some 500 px. Narrower (a phone, a dialog on one), the
  // select's label and the words Previous and Next are kept for screen readers only, so the pager stays one
  // line, as the pagers without a select are at 390 px. Measured on the pager's own width (a container
  // query), not the window's: a dialog is narrower than the page.
  const narrowHidden = pageSizeOptions ? '@max-lg:sr-only' : undefined;

  return (
    <div className="@container flex flex-wrap items-center justify-between gap-x-6 gap-y-2 px-1 text-sm">
      <div className="ml-auto flex flex-wrap items-center gap-x-4 gap-y-2">
        {pageSizeOptions && (
          <div className="flex items-center gap-2">
            <span id={labelId} className={cn('text-muted-foreground', narrowHidden)}>
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
        <span className="text-muted-foreground">
          Page {pageIndex + 1} of {pageCount}
          <span className="sr-only"> ({totalElements} total)</span>
        </span>
        <div className="flex items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => table.previousPage()}
            disabled={disabled || !table.getCanPreviousPage()}
          >
            <ChevronLeftIcon />
            <span className={narrowHidden}>Previous</span>
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => table.nextPage()}
            disabled={disabled || !table.getCanNextPage()}
          >
            <span className={narrowHidden}>Next</span>
            <ChevronRightIcon />
          </Button>
        </div>
      </div>
    </div>
  );
}
