export { DataTable, type DataTableProps } from './data-table';
export { DataTableColumnHeader } from './data-table-column-header';
export { fromQuery } from './from-query';
export {
  DEFAULT_TABLE_PAGE_SIZE,
  type FilterValues,
  type ServerTable,
  type ServerTableControls,
  type ServerTableParams,
  toSortParam,
  useServerTable,
} from './use-server-table';
