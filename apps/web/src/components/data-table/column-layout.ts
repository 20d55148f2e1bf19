import type { Column } from '@tanstack/react-table';
import { cn } from '@/lib/utils';

/** A column without `meta.width` gets at least this much and shares what is left of the width. */
export const FLEXIBLE_MIN_WIDTH = 120;

export const ACTIONS_COLUMN_ID = 'actions';

/**
 * The table's minimum width: every column's `meta.width` (its fixed width) or the flexible minimum. With
 * `table-layout: fixed` the widths then depend on the viewport only, never on the rows, so filters,
 * loading and empty pages keep the same shape; below this width the table scrolls sideways.
 */
export function tableMinWidth<TData>(columns: Column<TData>[]): number | string {
  const widths = columns.map(
    (column) => column.columnDef.meta?.width ?? column.columnDef.meta?.minWidth ?? FLEXIBLE_MIN_WIDTH,
  );
  const px = widths.reduce<number>((sum, width) => sum + (typeof width === 'number' ? width : 0), 0);
  const lengths = widths.filter((width) => typeof width === 'string');
  // A width in font units (ch) is resolved by the browser, so the sum is left to CSS as well.
  return lengths.length === 0 ? px : `calc(${[`${px}px`, ...lengths].join(' + ')})`;
}

/** The <col> width: a column's own `meta.width`, or none for a flexible column. */
export function columnWidth<TData>(column: Column<TData>): number | string | undefined {
  return column.columnDef.meta?.width;
}

/**
 * Classes of a header or body cell. The actions column sticks to the right edge so row actions stay in
 * reach on a phone while the rest scrolls; it needs an opaque background for that (the row's hover and
 * selected tints mixed in), and a shadow marks the edge once the table overflows.
 */
export function cellClassName<TData>(column: Column<TData>, overflows: boolean): string {
  const sticky = column.id === ACTIONS_COLUMN_ID;
  return cn(
    'overflow-hidden text-ellipsis',
    sticky && [
      'sticky right-0 z-[1] bg-background',
      '[tr:hover>&]:bg-[color-mix(in_oklab,var(--muted)_50%,var(--background))] [tr[data-state=selected]>&]:bg-muted',
      overflows && 'shadow-[-8px_0_8px_-8px_rgb(0_0_0/0.35)]',
    ],
    column.columnDef.meta?.className,
  );
}
