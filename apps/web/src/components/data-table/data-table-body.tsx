import { flexRender, type Table } from '@tanstack/react-table';
import { TriangleAlertIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { TableBody, TableCell, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { cellClassName } from './column-layout';

export interface DataTableBodyProps<TData> {
  table: Table<TData>;
  isLoading?: boolean;
  isFetching?: boolean;
  error?: unknown;
  errorText: string;
  emptyText: string;
  onRetry?: () => void;
  /** The table scrolls sideways: the sticky actions column shows its edge. */
  overflows?: boolean;
}

export function DataTableBody<TData>({
  table,
  isLoading,
  isFetching,
  error,
  errorText,
  emptyText,
  onRetry,
  overflows = false,
}: DataTableBodyProps<TData>) {
  const columns = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;

  if (isLoading) {
    const count = Math.min(table.getState().pagination.pageSize, 10);
    return (
      <TableBody>
        {Array.from({ length: count }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
          <TableRow key={index} data-testid="skeleton-row">
            {columns.map((column) => (
              <TableCell key={column.id} className={cellClassName(column, overflows)}>
                <Skeleton className="h-5 w-full min-w-8" />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    );
  }

  if (rows.length === 0) {
    return (
      <TableBody>
        <TableRow className="hover:bg-transparent">
          <TableCell colSpan={columns.length} className="h-24 text-center whitespace-normal">
            {/* As wide as the visible part of the table (the container's width, 1rem of cell padding off) and
                pinned to its left edge: centred on the whole width, a table wider than a phone showed the
                message and Try again off screen, past where it scrolls. */}
            <div className="sticky left-2 w-[calc(100cqw-1rem)]">
              {error ? (
                <div role="alert" className="flex flex-col items-center gap-2 py-4">
                  <TriangleAlertIcon className="size-5 text-destructive" aria-hidden="true" />
                  <p className="font-medium">{errorText}</p>
                  {onRetry && (
                    <Button variant="outline" size="sm" onClick={onRetry}>
                      Try again
                    </Button>
                  )}
                </div>
              ) : (
                <span className="text-muted-foreground">{emptyText}</span>
              )}
            </div>
          </TableCell>
        </TableRow>
      </TableBody>
    );
  }

  return (
    <TableBody className={cn('transition-opacity', isFetching && 'opacity-60')}>
      {rows.map((row) => (
        <TableRow key={row.id} data-state={row.getIsSelected() ? 'selected' : undefined}>
          {row.getVisibleCells().map((cell) => (
            <TableCell key={cell.id} className={cellClassName(cell.column, overflows)}>
              {flexRender(cell.column.columnDef.cell, cell.getContext())}
            </TableCell>
          ))}
        </TableRow>
      ))}
    </TableBody>
  );
}
