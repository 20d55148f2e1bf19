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
        <div className="relative w-full sm:w-64">
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
            className="h-8 pl-8"
          />
        </div>
      )}
      {filters}
      <div className="ml-auto flex items-center gap-2">
        {onRefresh && (
          <Button variant="outline" size="sm" onClick={onRefresh} aria-label="Refresh" disabled={isFetching}>
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
