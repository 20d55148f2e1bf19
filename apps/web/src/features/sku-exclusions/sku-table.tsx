import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { CategoryFilter } from './category-filter';
import { skuColumns } from './sku-columns';
import { type SkuFilters, skuListQuery, skuListUrl } from './sku-exclusions-api';
import { useRemoveSku } from './use-remove-sku';

/** One ruleset's exclusions; keyed by ruleset, so switching starts again on page 0 with no filters. */
export function SkuTable({
  rulesetId,
  categories,
  canManage,
}: {
  rulesetId: string;
  categories: string[];
  canManage: boolean;
}) {
  const table = useServerTable<SkuFilters>({ initialFilters: { category: undefined } });
  const query = useQuery(skuListQuery(rulesetId, table.params));
  const removal = useRemoveSku(rulesetId);
  const { ask } = removal;
  const columns = useMemo(() => skuColumns(canManage ? { onRemove: ask } : {}), [canManage, ask]);

  return (
    <>
      <ConfirmDialog
        open={removal.asking !== null}
        onOpenChange={(open) => !open && removal.cancel()}
        title="Remove SKU"
        description={
          <>
            Purchases of <span className="font-mono font-medium text-foreground">{removal.asking?.sku}</span>{' '}
            will earn points again under this ruleset.
          </>
        }
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={removal.pending}
        destructive
        onConfirm={removal.confirm}
      />
      <DataTable
        label="Excluded SKUs"
        exportList={{ name: 'excluded-skus', url: skuListUrl(rulesetId, table.params) }}
        columns={columns}
        controls={table}
        getRowId={(sku) => sku.sku}
        {...fromQuery(query)}
        errorText="Failed to load SKU exclusions"
        searchable
        searchLabel="Search SKUs"
        searchPlaceholder="Search SKUs..."
        filters={
          <CategoryFilter
            categories={categories}
            value={table.filters.category}
            onChange={(category) => table.setFilter('category', category)}
          />
        }
      />
    </>
  );
}
