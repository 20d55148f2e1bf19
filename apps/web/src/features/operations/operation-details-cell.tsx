import type { Operation } from '@loyalty/contracts';
import { ReceiptTextIcon } from 'lucide-react';
import { Link } from 'react-router';
import { IdCell } from '@/components/data-table';
import { OperationLink, TEXT_LINK_CLASS } from '@/components/links/text-link';
import { Button } from '@/components/ui/button';
import { getCurrentUser } from '@/lib/current-user';
import { cn } from '@/lib/utils';
import { type OperationDetail, operationDetails } from './operation-format';

// Ids in Details stay on one line (cut, full value in the tooltip); free text may take two lines.
const ID_DETAILS: Partial<Record<OperationDetail['key'], string>> = {
  transactionId: 'transaction ID',
  receipt: 'receipt ID',
  returnOf: 'returned operation ID',
  holdId: 'hold ID',
  operationId: 'requested operation ID',
};

const TONES: Partial<Record<OperationDetail['key'], string>> = {
  error: 'text-destructive',
  // Points the return could not take back: not an error, but not to be read past either.
  shortfall: 'font-medium text-warning-foreground',
};

/** Details that name another operation: found by that id on this screen (the search takes operation ids and UUIDs). */
const LINKED_OPERATIONS = new Set<OperationDetail['key']>(['returnOf', 'holdId']);

function DetailValue({ detail }: { detail: OperationDetail }) {
  const idLabel = ID_DETAILS[detail.key];
  if (idLabel && LINKED_OPERATIONS.has(detail.key)) {
    return (
      <IdCell value={detail.value} label={idLabel}>
        <OperationLink id={detail.value}>{detail.value}</OperationLink>
      </IdCell>
    );
  }
  if (idLabel) return <IdCell value={detail.value} label={idLabel} />;
  // The import's entry is in the audit log, which only administrators read; the link opens the log on that
  // entry (its target is the import's id).
  if (detail.key === 'line' && detail.importId && getCurrentUser().isAdmin) {
    return (
      <Link
        to={`/audit?${new URLSearchParams({ targetType: 'import', targetId: detail.importId })}`}
        className={cn(TEXT_LINK_CLASS, '[overflow-wrap:anywhere]')}
        title={`Import ${detail.importId}`}
      >
        {detail.value}
      </Link>
    );
  }
  return (
    <span className={cn('line-clamp-2 [overflow-wrap:anywhere]', TONES[detail.key])} title={detail.value}>
      {detail.value}
    </span>
  );
}

export function Dash() {
  return <span className="text-muted-foreground">—</span>;
}

export function DetailsCell({
  operation,
  onViewReceipt,
  loading,
}: {
  operation: Operation;
  onViewReceipt: (operation: Operation) => void;
  loading: boolean;
}) {
  const details = operationDetails(operation.meta);
  // A refused accrual stored no receipt (POS-API: the receipt is stored with the accrual it earned).
  const hasReceipt = operation.type === 'accrual' && operation.status !== 'failed';
  return (
    // A container: below 9rem (the Details column at 1280 px with the sidebar open) each label goes above its
    // value, which beside 'Receipt:' was squeezed to nothing.
    <div className="@container flex min-w-0 flex-col items-start gap-1.5 whitespace-normal">
      {details.length === 0 && !hasReceipt && <Dash />}
      {details.length > 0 && (
        <dl className="grid w-full grid-cols-1 items-center gap-x-2 text-xs @[9rem]:grid-cols-[auto_minmax(0,1fr)]">
          {details.map((detail) => (
            <div key={detail.key} className="contents">
              <dt className="text-muted-foreground">{detail.label}:</dt>
              <dd className="min-w-0">
                <DetailValue detail={detail} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {hasReceipt && (
        <Button
          variant="outline"
          size="sm"
          // Wraps in a narrow Details column (1280 px with the sidebar open) instead of being cut at its edge.
          className="h-auto min-h-7 max-w-full whitespace-normal px-2 py-1 text-left text-xs leading-tight"
          onClick={() => onViewReceipt(operation)}
          disabled={loading}
        >
          <ReceiptTextIcon />
          View Receipt
        </Button>
      )}
    </div>
  );
}
