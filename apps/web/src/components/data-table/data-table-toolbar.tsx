import type { Table } from '@tanstack/react-table';
import { RefreshCwIcon, SearchIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { DataTableViewOptions } from './data-table-view-options';
import { ExportListButton, type ListExport } from './export-list-button';
import type { ServerTableControls } from './use-server-table';

export interface DataTableToolbarProps<TData> {
  table: Table<TData>;
  controls: ServerTableControls;
  searchable?: boolean;
  searchLabel?: string;
  searchPlaceholder?: string;
  filters?: ReactNode;
  onRefresh?: () => void;
  isFetching?: boolean;
  exportList?: ListExport;
}

export function DataTableToolbar<TData>({
  table,
  controls,
  searchable,
  searchLabel = 'Search',
  searchPlaceholder = 'Search...',
  filters,
  onRefresh,
  isFetching,
  exportList,
}: DataTableToolbarProps<TData>) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {searchable && (
        // A grid cell shared by the input and an invisible copy of the placeholder: from sm up the box is as
        // wide as the placeholder in the font the browser actually uses (16rem at least), so a long hint
        // ('Card number, client ID or account ID') shows whole instead of being cut at a fixed 16rem. The
        // copy's right padding is 0.5rem more than the input's: Chromium keeps a few px after the text (caret,
        // the hidden clear button), which cut the last letter with equal padding.
        <div className="relative grid w-full sm:w-auto sm:max-w-full sm:min-w-64">
          <SearchIcon
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label={searchLabel}
            placeholder={searchPlaceholder}
            value={controls.searchInput}
            onChange={(event) => controls.setSearchInput(event.target.value)}
            className="col-start-1 row-start-1 h-8 pl-8"
          />
          <span
            aria-hidden="true"
            className="invisible col-start-1 row-start-1 h-0 overflow-hidden whitespace-pre border-x pr-5 pl-8 text-base md:text-sm"
          >
            {searchPlaceholder}
          </span>
        </div>
      )}
      {filters}
      <div className="ml-auto flex items-center gap-2">
        {onRefresh && (
          <Button variant="outline" size="sm" onClick={onRefresh} aria-label="Refresh" pending={isFetching}>
            <RefreshCwIcon className={cn(isFetching && 'animate-spin')} />
            <span className="hidden sm:inline">Refresh</span>
          </Button>
        )}
        {exportList && <ExportListButton {...exportList} />}
        <DataTableViewOptions table={table} />
      </div>
    </div>
  );
}
