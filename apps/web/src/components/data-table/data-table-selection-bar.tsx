import type { Table } from '@tanstack/react-table';
import { DownloadIcon } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { type CsvExport, csvFileName, downloadCsv, toCsv } from './csv';

export interface DataTableSelectionBarProps<TData> {
  table: Table<TData>;
  /** Goes up with each selection change the user made; the bar says the new count then, and only then. */
  selectionChanges: number;
  bulkActions?: (selected: TData[], clearSelection: () => void) => ReactNode;
  exportCsv?: CsvExport<TData>;
}

/** '2 rows selected.', '1 row selected.', 'No rows selected.': what a screen reader is told on a change. */
export function selectionText(count: number): string {
  if (count === 0) return 'No rows selected.';
  return `${count} ${count === 1 ? 'row' : 'rows'} selected.`;
}

/**
 * The selected-row count and what can be done with the selection. The buttons are always there (disabled
 * with nothing selected) so the table below never moves when a row is ticked.
 * The visible count is not a live region: it changes with the rows on the page too, and a new search result
 * was then read twice (the table's own status says the result). A separate message says the count when the
 * user changed the selection; a new node each time, so ticking the same count again is said again.
 */
export function DataTableSelectionBar<TData>({
  table,
  selectionChanges,
  bulkActions,
  exportCsv,
}: DataTableSelectionBarProps<TData>) {
  const selected = table.getSelectedRowModel().rows.map((row) => row.original);
  const onPage = table.getRowModel().rows.length;
  const clear = () => table.resetRowSelection();
  const [said, setSaid] = useState<{ text: string; id: number } | null>(null);
  const text = selectionText(selected.length);
  // biome-ignore lint/correctness/useExhaustiveDependencies: said on the user's changes only, with the count they left.
  useEffect(() => {
    if (selectionChanges > 0) setSaid({ text, id: selectionChanges });
  }, [selectionChanges]);

  return (
    <div className="flex min-h-8 flex-wrap items-center gap-2 text-sm">
      <p className="mr-auto text-muted-foreground">
        {selected.length} of {onPage} {onPage === 1 ? 'row' : 'rows'} selected.
      </p>
      <div aria-live="polite" className="sr-only" data-testid="selection-status">
        {said && <span key={said.id}>{said.text}</span>}
      </div>
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
