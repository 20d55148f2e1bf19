import type { ExcludedSku } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { Trash2Icon } from 'lucide-react';
import { actionsColumn } from '@/components/data-table';
import { TruncatedText, WrappedText } from '@/components/text/user-text';
import { Button } from '@/components/ui/button';

function Empty() {
  return <span className="text-muted-foreground">—</span>;
}

/** Column ids are the server's sort fields (sku, description, category). */
export function skuColumns(options: { onRemove?: (sku: ExcludedSku) => void }): ColumnDef<ExcludedSku>[] {
  const columns: ColumnDef<ExcludedSku>[] = [
    {
      accessorKey: 'sku',
      header: 'SKU',
      enableSorting: true,
      enableHiding: false,
      // Wraps, never cut: SKUs of one family share a long prefix ('APPAREL-WOMENS-OUTERWEAR-PARKA-…'), and cut
      // to the column they all read the same.
      cell: ({ row }) => <WrappedText text={row.original.sku} className="font-mono font-medium" />,
    },
    {
      accessorKey: 'description',
      header: 'Description',
      enableSorting: true,
      meta: { className: 'max-w-80 truncate' },
      cell: ({ row }) =>
        row.original.description ? <TruncatedText text={row.original.description} /> : <Empty />,
    },
    {
      accessorKey: 'category',
      header: 'Category',
      enableSorting: true,
      cell: ({ row }) => (row.original.category ? <TruncatedText text={row.original.category} /> : <Empty />),
    },
  ];
  const { onRemove } = options;
  if (onRemove) {
    columns.push(
      actionsColumn(
        (sku) => (
          <Button
            variant="ghost"
            size="sm"
            className="text-destructive hover:text-destructive"
            aria-label={`Remove ${sku.sku}`}
            onClick={() => onRemove(sku)}
          >
            <Trash2Icon />
            Remove
          </Button>
        ),
        // The button (113 px) and the cell's padding: at 112 its right edge was cut, a stray ellipsis beside it.
        { width: 132 },
      ),
    );
  }
  return columns;
}
