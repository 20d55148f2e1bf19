export { ACTIONS_COLUMN_ID } from './column-layout';
export { CopyButton } from './copy-button';
export { type CsvColumn, type CsvExport, csvCell, toCsv } from './csv';
export { DataTable, type DataTableProps } from './data-table';
export { DataTableColumnHeader } from './data-table-column-header';
export { DateTimeCell } from './date-time-cell';
export type { ListExport } from './export-list-button';
export { fromQuery } from './from-query';
export { IdCell, type IdCellProps } from './id-cell';
export { OperationPoints } from './operation-points';
export { actionsColumn, RowActionsMenu } from './row-actions';
export {
  DEFAULT_TABLE_PAGE_SIZE,
  type FilterValues,
  type ListQuerySchema,
  type ServerTable,
  type ServerTableControls,
  type ServerTableParams,
  toSortParam,
  useServerTable,
} from './use-server-table';
