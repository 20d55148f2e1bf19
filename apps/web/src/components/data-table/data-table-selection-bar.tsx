import type { Table } from '@tanstack/react-table';
import { DownloadIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { type CsvExport, csvFileName, downloadCsv, toCsv } from './csv';

export interface DataTableSelectionBarProps<TData> {
  table: Table<TData>;
  bulkActions?: (selected: TData[], clearSelection: () => void) => ReactNode;
  exportCsv?: CsvExport<TData>;
}

/**
 * The selected-row count and what can be done with the selection. The buttons are always there (disabled
 * with nothing selected) so the table below never moves when a row is ticked.
 */
export function DataTableSelectionBar<TData>({
  table,
  bulkActions,
  exportCsv,
}: DataTableSelectionBarProps<TData>) {
  const selected = table.getSelectedRowModel().rows.map((row) => row.original);
  const onPage = table.getRowModel().rows.length;
  const clear = () => table.resetRowSelection();

  return (
    <div className="flex min-h-8 flex-wrap items-center gap-2 text-sm">
      <p className="mr-auto text-muted-foreground" aria-live="polite">
        {selected.length} of {onPage} {onPage === 1 ? 'row' : 'rows'} selected.
      </p>
      {bulkActions?.(selected, clear)}
      {exportCsv && (
        <Button
          variant="outline"
          size="sm"
          disabled={selected.length === 0}
          onClick={() => downloadCsv(csvFileName(exportCsv.name), toCsv(exportCsv.columns, selected))}
        >
          <DownloadIcon />
          Export selected
        </Button>
      )}
    </div>
  );
}
