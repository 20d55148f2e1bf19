import type { ReceiptDetail } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { ClientLink } from '@/components/links/client-link';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { formatPoints } from '@/lib/points';
import { programmeCurrency, settingsQuery } from '@/lib/settings-api';
import { useReturnFocus } from '@/lib/use-return-focus';
import { ReceiptItemsTable } from './receipt-items-table';
import { posLabel, receiptTotals } from './receipt-math';
import { receiptQuery } from './receipts-api';

export interface ReceiptDialogProps {
  /** The accrual's id (or its POS operationId); nothing loads while it is null or the dialog is closed. */
  operationId: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Spec section 2 "Operations History" → View Receipt: the receipt, its lines and its totals. */
export function ReceiptDialog({ operationId, open, onOpenChange }: ReceiptDialogProps) {
  const query = useQuery({ ...receiptQuery(operationId ?? ''), enabled: open && !!operationId });
  // Every role may read settings; money waits for them so it never flips from one currency to another.
  const settings = useQuery({ ...settingsQuery(), enabled: open });
  const returnFocus = useReturnFocus();
  const failed = open && query.isError && !query.isFetching;

  // The toast 'Failed to load receipt details' (with the server's message) says it all: an empty dialog
  // would only repeat it. Opening again retries.
  useEffect(() => {
    if (failed) onOpenChange(false);
  }, [failed, onOpenChange]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl grid-cols-[minmax(0,1fr)]" {...returnFocus}>
        <DialogHeader>
          <DialogTitle>Receipt Details</DialogTitle>
          <DialogDescription>The receipt this accrual was earned on.</DialogDescription>
        </DialogHeader>
        {query.data && !settings.isPending ? (
          <ReceiptBody detail={query.data} currency={programmeCurrency(settings.data)} />
        ) : (
          <ReceiptSkeleton />
        )}
      </DialogContent>
    </Dialog>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm font-medium">{children}</dd>
    </div>
  );
}

function ReceiptBody({ detail, currency }: { detail: ReceiptDetail; currency: string }) {
  const { receipt, items } = detail;
  const totals = receiptTotals(detail);
  const money = (value: number) => formatMoney(value, currency);
  const purchased = formatDateTime(receipt.purchasedAt);
  const booked = formatDateTime(receipt.createdAt);
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Receipt">
        <Field label="Receipt ID">
          <span className="break-all">{receipt.receiptId}</span>
        </Field>
        <Field label="POS">{posLabel(receipt.posId, detail.posName, detail.posAddress)}</Field>
        <Field label="Card Number">
          <ClientLink to={receipt.cardNumber}>
            <span className="font-mono tabular-nums">{receipt.cardNumber}</span>
          </ClientLink>
        </Field>
        <Field label="Total Amount">{money(receipt.totalAmount)}</Field>
        <Field label="Total Discount">{money(receipt.totalDiscount)}</Field>
        {/* The ruleset the points were earned under: a newer one in force now would explain them wrongly. */}
        <Field label="Earned under">
          {detail.rulesetVersion === null ? '—' : `Ruleset v${detail.rulesetVersion}`}
        </Field>
        {/* The rules (day and time windows) read the purchase time; an offline till books it later, and then
            the booking time is said beside it (last, so the two share a row in two columns and in three).
            Compared as shown: a few seconds apart is the same. */}
        <Field label="Purchased">{purchased}</Field>
        {booked !== purchased && <Field label="Booked">{booked}</Field>}
      </dl>
      <ReceiptItemsTable items={items} currency={currency} />
      <dl
        aria-label="Receipt totals"
        className="ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-y-1 text-sm [&_dd]:pl-6"
      >
        <dt className="text-muted-foreground">Subtotal</dt>
        <dd className="text-right tabular-nums">{money(totals.subtotal)}</dd>
        <dt className="text-muted-foreground">Discount</dt>
        <dd className="text-right tabular-nums">
          {totals.discount > 0 ? `-${money(totals.discount)}` : money(0)}
        </dd>
        <dt className="border-t pt-1 font-medium">Receipt Total</dt>
        <dd className="border-t pt-1 text-right font-medium tabular-nums">{money(totals.total)}</dd>
        <dt className="font-medium">Total Bonus Points Earned</dt>
        <dd className="text-right font-medium tabular-nums text-emerald-700 dark:text-emerald-400">
          {formatPoints(totals.bonusPoints)}
        </dd>
      </dl>
    </>
  );
}

function ReceiptSkeleton() {
  return (
    <div className="grid gap-4" role="status" aria-label="Loading receipt">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {['id', 'pos', 'card', 'amount', 'discount', 'purchased', 'ruleset'].map((key) => (
          <div key={key} className="grid gap-1.5">
            <Skeleton className="h-3 w-16" />
            <Skeleton className="h-4 w-28" />
          </div>
        ))}
      </div>
      <Skeleton className="h-32 w-full" />
      <Skeleton className="ml-auto h-16 w-full max-w-xs" />
    </div>
  );
}
