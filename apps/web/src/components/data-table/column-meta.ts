import type { RowData } from '@tanstack/react-table';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Name in the column visibility menu (defaults to a string header, else the id). */
    label?: string;
    /** Classes for the column's cells and header (widths, alignment). */
    className?: string;
  }
}
