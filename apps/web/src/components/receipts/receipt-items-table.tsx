import type { ReceiptDetail } from '@loyalty/contracts';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';

// Goods sold by weight have 3-decimal quantities; amounts and points have at most 2.
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

const heads = ['SKU', 'Category', 'Qty', 'Price', 'Discount', 'Line Total', 'Bonus Points'];

/** The receipt's lines; the table scrolls sideways inside the dialog on narrow screens. */
export function ReceiptItemsTable({ items }: { items: ReceiptDetail['items'] }) {
  return (
    <div className="rounded-md border">
      <Table aria-label="Receipt items">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {heads.map((head, index) => (
              <TableHead key={head} className={index >= 2 ? 'text-right' : undefined}>
                {head}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.length === 0 ? (
            <TableRow className="hover:bg-transparent">
              <TableCell colSpan={heads.length} className="h-16 text-center text-muted-foreground">
                No results.
              </TableCell>
            </TableRow>
          ) : (
            items.map((item) => (
              <TableRow key={item.id}>
                <TableCell className="font-mono text-xs">{item.sku}</TableCell>
                <TableCell>{item.category ?? <span className="text-muted-foreground">—</span>}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {quantityFormat.format(item.quantity)}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(item.price)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(item.discount)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(item.lineTotal)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(item.bonusPoints)}</TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </div>
  );
}
