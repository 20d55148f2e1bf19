import type { Column } from '@tanstack/react-table';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/** A sortable header: the button's name is the column title; the direction is on the th's aria-sort. */
export function DataTableColumnHeader<TData, TValue>({
  column,
  title,
}: {
  column: Column<TData, TValue>;
  title: string;
}) {
  if (!column.getCanSort()) return <span>{title}</span>;
  const sorted = column.getIsSorted();
  const Icon = sorted === 'asc' ? ArrowUpIcon : sorted === 'desc' ? ArrowDownIcon : ArrowUpDownIcon;
  return (
    // -ml-2 lines its title up with the cells below; the button then touches the cell's edge, which hides
    // overflow, so its focus ring goes inside (.focus-inset) where nothing cuts it.
    <button
      type="button"
      onClick={column.getToggleSortingHandler()}
      className="focus-inset -ml-2 inline-flex h-8 items-center gap-1.5 rounded-md px-2 hover:bg-accent hover:text-accent-foreground"
    >
      {title}
      <Icon className={cn('size-3.5', !sorted && 'text-muted-foreground/70')} aria-hidden="true" />
    </button>
  );
}
