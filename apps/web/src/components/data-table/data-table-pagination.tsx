import type { Table } from '@tanstack/react-table';
import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

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
            Previous
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => table.nextPage()}
            disabled={disabled || !table.getCanNextPage()}
          >
            Next
            <ChevronRightIcon />
          </Button>
        </div>
      </div>
    </div>
  );
}
