import type { ReceiptDetail } from '@loyalty/contracts';
import { ScrollHint, useScrollRegion } from '@/components/data-table/scroll-region';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { ruleLabel } from './receipt-math';

// Goods sold by weight have 3-decimal quantities; amounts and points have at most 2.
const quantityFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

const heads = ['SKU', 'Category', 'Qty', 'Price', 'Discount', 'Line Total', 'Bonus Points'];

/**
 * The receipt's lines; the table scrolls sideways inside the dialog on narrow screens, and then says so as the
 * list tables do, and its scrolling area takes focus so a keyboard can scroll it too.
 */
export function ReceiptItemsTable({ items, currency }: { items: ReceiptDetail['items']; currency: string }) {
  const money = (value: number) => formatMoney(value, currency);
  const { overflows, container } = useScrollRegion('Receipt items');
  return (
    <div className="flex flex-col gap-2">
      {overflows && <ScrollHint />}
      <div className="rounded-md border">
        <Table aria-label="Receipt items" container={container}>
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
                  <TableCell className="text-right tabular-nums">{money(item.price)}</TableCell>
                  <TableCell className="text-right tabular-nums">{money(item.discount)}</TableCell>
                  <TableCell className="text-right tabular-nums">{money(item.lineTotal)}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatNumber(item.bonusPoints)}
                    <LineRule rule={item.rule} />
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}

/** Why the line earned what it did (PROGRAMME-API §3): a rule's name as a badge, or what held it back. */
function LineRule({ rule }: { rule: string }) {
  const label = ruleLabel(rule);
  if (label === null) return null;
  // Under the points, not beside them: beside, a line with a rule had its points out of line with the rest.
  if (label.named)
    return (
      <span className="mt-1 block">
        <Badge
          variant="outline"
          className="max-w-40 truncate align-middle font-normal"
          title={`Rule: ${rule}`}
        >
          {label.text}
        </Badge>
      </span>
    );
  return <span className="block text-xs font-normal text-muted-foreground">{label.text}</span>;
}
