import type { PointsFlowReport } from '@loyalty/contracts';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { formatPeriod } from './finance-range';

const COLUMNS = [
  { key: 'opening', label: 'Opening' },
  { key: 'earned', label: 'Earned' },
  { key: 'redeemed', label: 'Redeemed' },
  { key: 'returned', label: 'Returned' },
  { key: 'expired', label: 'Expired' },
  { key: 'adjusted', label: 'Adjusted' },
  { key: 'closing', label: 'Closing' },
] as const;

/** Debits shown as positive amounts, so they get a minus sign here to read as outflows. */
const OUTFLOWS = new Set(['redeemed', 'returned', 'expired']);

function amount(key: string, value: number): string {
  if (value === 0) return '0';
  return OUTFLOWS.has(key) ? `−${formatNumber(value)}` : formatNumber(value);
}

/** The roll-forward: each row opens where the previous closed; the footer is the whole range. */
export function FlowTable({ report }: { report: PointsFlowReport }) {
  const numeric = 'text-right tabular-nums';
  return (
    <Table
      // A keyboard user can scroll the columns a phone cannot show (the region is a tab stop).
      container={{ tabIndex: 0, role: 'region', 'aria-label': 'Points flow (scrolls sideways)' }}
    >
      <TableCaption className="text-left">
        Points by period. Closing = opening + earned + adjusted − redeemed − returned − expired.
      </TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Period</TableHead>
          {COLUMNS.map((column) => (
            <TableHead key={column.key} scope="col" className="text-right">
              {column.label}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {report.rows.map((row) => (
          <TableRow key={row.period}>
            <TableHead scope="row" className="font-medium whitespace-nowrap">
              {formatPeriod(row.period)}
            </TableHead>
            {COLUMNS.map((column) => (
              <TableCell
                key={column.key}
                className={cn(
                  numeric,
                  (column.key === 'opening' || column.key === 'closing') && 'font-medium',
                )}
              >
                {amount(column.key, row[column.key])}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
      <tfoot className="border-t bg-muted/50">
        <TableRow>
          <TableHead scope="row">Total</TableHead>
          {COLUMNS.map((column) => (
            <TableCell key={column.key} className={cn(numeric, 'font-semibold')}>
              {amount(column.key, report.totals[column.key])}
            </TableCell>
          ))}
        </TableRow>
      </tfoot>
    </Table>
  );
}
