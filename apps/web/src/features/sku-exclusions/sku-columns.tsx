import type { ExcludedSku } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { Trash2Icon } from 'lucide-react';
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
      cell: ({ row }) => <span className="font-mono font-medium">{row.original.sku}</span>,
    },
    {
      accessorKey: 'description',
      header: 'Description',
      enableSorting: true,
      meta: { className: 'max-w-80 truncate' },
      cell: ({ row }) =>
        row.original.description ? (
          <span title={row.original.description}>{row.original.description}</span>
        ) : (
          <Empty />
        ),
    },
    {
      accessorKey: 'category',
      header: 'Category',
      enableSorting: true,
      cell: ({ row }) => row.original.category ?? <Empty />,
    },
  ];
  const { onRemove } = options;
  if (onRemove) {
    columns.push({
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      enableHiding: false,
      meta: { width: 112, className: 'text-right' },
      cell: ({ row }) => (
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:text-destructive"
          aria-label={`Remove ${row.original.sku}`}
          onClick={() => onRemove(row.original)}
        >
          <Trash2Icon />
          Remove
        </Button>
      ),
    });
  }
  return columns;
}
