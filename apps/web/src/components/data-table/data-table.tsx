import type { Paged } from '@loyalty/contracts';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type RowSelectionState,
  useReactTable,
  type VisibilityState,
} from '@tanstack/react-table';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Table, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import './column-meta';
import { ACTIONS_COLUMN_ID, cellClassName, columnWidth, tableMinWidth } from './column-layout';
import type { CsvExport } from './csv';
import { DataTableBody } from './data-table-body';
import { DataTableColumnHeader } from './data-table-column-header';
import { DataTablePagination } from './data-table-pagination';
import { DataTableSelectionBar } from './data-table-selection-bar';
import { DataTableStatus } from './data-table-status';
import { DataTableToolbar } from './data-table-toolbar';
import type { ListExport } from './export-list-button';
import { ScrollHint, useScrollRegion } from './scroll-region';
import { selectionColumn } from './selection-column';
import { usePageCorrection } from './use-page-correction';
import type { ServerTableControls } from './use-server-table';

export interface DataTableProps<TData> {
  /** Accessible name of the table, e.g. 'Users'. */
  label: string;
  columns: ColumnDef<TData>[];
  /** The current page from the server: `{content, totalElements, totalPages}`. */
  page: Pick<Paged<TData>, 'content' | 'totalElements' | 'totalPages'> | undefined;
  /** Page, sort and search state from `useServerTable`. */
  controls: ServerTableControls;
  getRowId: (row: TData) => string;
  /** First load, nothing to show yet: skeleton rows. */
  isLoading?: boolean;
  /** A refetch is running while the previous page stays visible. */
  isFetching?: boolean;
  /** Shown instead of the empty text when there are no rows. */
  error?: unknown;
  errorText?: string;
  onRefresh?: () => void;
  searchable?: boolean;
  searchLabel?: string;
  searchPlaceholder?: string;
  /** Filters (selects, inputs) placed after the search box. */
  filters?: ReactNode;
  emptyText?: string;
  /**
   * What can be done with selected rows (buttons; disable them when `selected` is empty). Selection
   * checkboxes and the selected-row count appear only on tables with bulk actions or `exportCsv`.
   */
  bulkActions?: (selected: TData[], clearSelection: () => void) => ReactNode;
  /** "Export selected": the selected rows as a CSV download named after the screen and the date. */
  exportCsv?: CsvExport<TData>;
  /** 'Export CSV' in the toolbar: every row of the list's current filters and sort, from the server. */
  exportList?: ListExport;
  pageSizeOptions?: number[];
}

/** A server-side table: paging, sorting and search are reported to `controls`, rows come from the server. */
export function DataTable<TData>({
  label,
  columns,
  page,
  controls,
  getRowId,
  isLoading,
  isFetching,
  error,
  errorText = 'Could not load the data.',
  onRefresh,
  searchable,
  searchLabel,
  searchPlaceholder,
  filters,
  emptyText = 'No results.',
  bulkActions,
  exportCsv,
  exportList,
  pageSizeOptions,
}: DataTableProps<TData>) {
  const enableRowSelection = Boolean(bulkActions || exportCsv);
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>({});
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  // Counts selection changes made through the table (a checkbox, select all, Clear after a bulk action), not
  // the reset below when the rows change: only the former are said (DataTableSelectionBar).
  const [selectionChanges, setSelectionChanges] = useState(0);
  const allColumns = useMemo(
    () => (enableRowSelection ? [selectionColumn<TData>(), ...columns] : columns),
    [columns, enableRowSelection],
  );
  const rows = page?.content;

  const table = useReactTable({
    data: rows ?? [],
    columns: allColumns,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    sortDescFirst: false,
    // The API sorts by one field.
    enableMultiSort: false,
    defaultColumn: { enableSorting: false },
    pageCount: page?.totalPages ?? 0,
    rowCount: page?.totalElements,
    enableRowSelection,
    state: { pagination: controls.pagination, sorting: controls.sorting, columnVisibility, rowSelection },
    onPaginationChange: controls.setPagination,
    onSortingChange: controls.setSorting,
    onColumnVisibilityChange: setColumnVisibility,
    onRowSelectionChange: (updater) => {
      setRowSelection(updater);
      setSelectionChanges((count) => count + 1);
    },
  });

  // Selection belongs to the rows on screen: a new page, sort or search starts without one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset exactly when the rows change.
  useEffect(() => setRowSelection({}), [rows]);

  usePageCorrection(page, isFetching, controls);

  const { overflows, container } = useScrollRegion(label);
  const visibleColumns = table.getVisibleLeafColumns();

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <DataTableToolbar
        table={table}
        controls={controls}
        searchable={searchable}
        searchLabel={searchLabel}
        searchPlaceholder={searchPlaceholder}
        filters={filters}
        onRefresh={onRefresh}
        isFetching={isFetching}
        exportList={exportList}
      />
      {enableRowSelection && (
        <DataTableSelectionBar
          table={table}
          selectionChanges={selectionChanges}
          bulkActions={bulkActions}
          exportCsv={exportCsv}
        />
      )}
      <DataTableStatus
        page={page}
        pageIndex={controls.pagination.pageIndex}
        isLoading={isLoading}
        isFetching={isFetching}
      />
      {overflows && (
        <ScrollHint actionsStay={visibleColumns.some((column) => column.id === ACTIONS_COLUMN_ID)} />
      )}
      <div className="overflow-hidden rounded-md border">
        <Table
          aria-label={label}
          aria-busy={isLoading || isFetching ? true : undefined}
          className="table-fixed"
          style={{ minWidth: tableMinWidth(visibleColumns) }}
          container={{
            ...container,
            // A size container: the empty and error states size themselves to its visible width (100cqw).
            className: '@container',
            'data-overflow': overflows || undefined,
          }}
        >
          <colgroup>
            {visibleColumns.map((column) => (
              <col key={column.id} style={{ width: columnWidth(column) }} />
            ))}
          </colgroup>
          <TableHeader>
            {table.getHeaderGroups().map((headerGroup) => (
              <TableRow key={headerGroup.id} className="hover:bg-transparent">
                {headerGroup.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const def = header.column.columnDef;
                  return (
                    <TableHead
                      key={header.id}
                      className={cellClassName(header.column, overflows)}
                      aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      {header.isPlaceholder ? null : typeof def.header === 'string' ? (
                        <DataTableColumnHeader column={header.column} title={def.header} />
                      ) : (
                        flexRender(def.header, header.getContext())
                      )}
                    </TableHead>
                  );
                })}
              </TableRow>
            ))}
          </TableHeader>
          <DataTableBody
            table={table}
            isLoading={isLoading}
            isFetching={isFetching}
            error={error}
            errorText={errorText}
            emptyText={emptyText}
            onRetry={onRefresh}
            overflows={overflows}
          />
        </Table>
      </div>
      <DataTablePagination
        table={table}
        totalElements={page?.totalElements}
        pageSizeOptions={pageSizeOptions}
        disabled={isLoading}
      />
    </div>
  );
}
