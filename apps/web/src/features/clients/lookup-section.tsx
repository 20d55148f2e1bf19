import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { usePagerFocus } from '@/lib/use-pager-focus';
import { cn } from '@/lib/utils';
import { pageCount } from './clients-api';

export interface LookupColumn<T> {
  header: string;
  className?: string;
  cell: (row: T) => ReactNode;
}

interface LookupSectionProps<T> {
  title: string;
  rows: T[];
  total: number;
  page: number;
  columns: LookupColumn<T>[];
  getRowId: (row: T) => string;
  emptyText: string;
  loading: boolean;
  onPageChange: (page: number) => void;
}

/** One paged section of the lookup: its total, its rows, and Previous / Next only when there is more than one page. */
export function LookupSection<T>({
  title,
  rows,
  total,
  page,
  columns,
  getRowId,
  emptyText,
  loading,
  onPageChange,
}: LookupSectionProps<T>) {
  const pages = pageCount(total);
  const headingId = `lookup-${title.toLowerCase().replace(/\s+/g, '-')}`;
  // While a page loads both stay focusable (pending); on the last page Next hands focus to Previous.
  const pager = usePagerFocus(page <= 0, page >= pages - 1);
  return (
    <Card className="min-w-0 gap-4" aria-labelledby={headingId} role="region">
      <CardHeader className="flex flex-row items-center gap-2">
        <CardTitle id={headingId}>{title}</CardTitle>
        <Badge variant="secondary" data-testid="section-total">
          {total}
          <span className="sr-only"> total</span>
        </Badge>
      </CardHeader>
      <CardContent className="flex min-w-0 flex-col gap-3">
        <div className="overflow-hidden rounded-md border">
          <Table aria-labelledby={headingId} aria-busy={loading || undefined}>
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                {columns.map((column) => (
                  <TableHead key={column.header} className={column.className}>
                    {column.header}
                  </TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody className={cn('transition-opacity', loading && 'opacity-60')}>
              {rows.length === 0 ? (
                <TableRow className="hover:bg-transparent">
                  <TableCell colSpan={columns.length} className="h-20 text-center text-muted-foreground">
                    {emptyText}
                  </TableCell>
                </TableRow>
              ) : (
                rows.map((row) => (
                  <TableRow key={getRowId(row)}>
                    {columns.map((column) => (
                      <TableCell key={column.header} className={column.className}>
                        {column.cell(row)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </div>
        {pages > 1 && (
          <nav
            aria-label={`${title} pages`}
            className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2 text-sm"
          >
            <span className="text-muted-foreground">
              Page {page + 1} of {pages}
            </span>
            <div className="flex items-center gap-2">
              <Button
                ref={pager.previous}
                variant="outline"
                size="sm"
                disabled={page <= 0}
                pending={loading}
                onClick={(event) => pager.press(event.currentTarget, () => onPageChange(page - 1))}
              >
                <ChevronLeftIcon />
                Previous
              </Button>
              <Button
                ref={pager.next}
                variant="outline"
                size="sm"
                disabled={page >= pages - 1}
                pending={loading}
                onClick={(event) => pager.press(event.currentTarget, () => onPageChange(page + 1))}
              >
                Next
                <ChevronRightIcon />
              </Button>
            </div>
          </nav>
        )}
      </CardContent>
    </Card>
  );
}
