import type { RowData } from '@tanstack/react-table';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Name in the column visibility menu (defaults to a string header, else the id). */
    label?: string;
    /** Classes for the column's cells and header (widths, alignment). */
    className?: string;
    /**
     * Fixed width (ids, dates, badges, actions): the column never grows or shrinks with its rows. A number is
     * px; a string is a CSS length, for a width that must follow the font (e.g. `calc(18ch + 1rem)`).
     */
    width?: number | string;
    /** A flexible column (no `width`) shares the spare width but never gets less than this (default 120). */
    minWidth?: number;
  }
}
