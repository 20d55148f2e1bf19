import type { Account } from '@loyalty/contracts';
import type { ReactNode } from 'react';
import { CardNumber } from '@/components/cards/card-number';
import { Badge } from '@/components/ui/badge';
import { formatPoints } from '@/lib/points';
import { cn } from '@/lib/utils';

/**
 * A figure's text size by its length: a balance up to the limit ('999,999,999,999.99 pts') steps down a size
 * or two instead of breaking inside the number in a quarter of 1280 px ('123,456,789.1' / '2 pts').
 */
function figureSize(children: ReactNode): string {
  const length = typeof children === 'string' ? children.length : 0;
  if (length <= 16) return 'text-2xl';
  return length <= 20 ? 'text-xl' : 'text-lg';
}

/** The longest number (digits and separators) a figure in half of a 390 px phone shows on one line. */
const PHONE_HALF_DIGITS = 9;

function Figure({ label, children, hint }: { label: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-xl border bg-card p-4 shadow-sm">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      {/* Wraps, never truncates: a balance of 1,234,567.89 pts is wider than a quarter of 1280 px, and an
          ellipsis hid its last digits. 'pts' goes to the next line first; a number is kept whole by its size
          (figureSize) and, on a phone, by a row of its own (ClientSummary). */}
      <dd className={cn(figureSize(children), 'font-semibold tabular-nums wrap-anywhere')}>{children}</dd>
      {/* Wraps: "balance − held − pending" is wider than half of a 390 px phone. */}
      {hint && <dd className="text-xs text-muted-foreground">{hint}</dd>}
    </div>
  );
}

/**
 * Balance, held, available and status. Available is what a till may spend now, as the server works it out
 * (`availableBalance`: balance − held − pending, PROGRAMME-API §1); the status says whether the client can
 * use the programme at a till, i.e. has an active card.
 */
export function ClientSummary({ account }: { account: Account }) {
  const figures = [account.balance, account.heldBalance, account.availableBalance].map(formatPoints);
  // Half a phone's width holds about nine digits of text-2xl: a longer number would break inside its digits
  // ('123,456,7' / '89.12 pts'), so below 640 px the figures then take a row each.
  const long = figures.some((figure) => figure.replace(/ pts$/, '').length > PHONE_HALF_DIGITS);
  return (
    <section aria-label="Account">
      <dl className={cn('grid gap-3 lg:grid-cols-4', long ? 'grid-cols-1 sm:grid-cols-2' : 'grid-cols-2')}>
        <Figure label="Balance">{figures[0]}</Figure>
        <Figure label="Held" hint="by open holds at tills">
          {figures[1]}
        </Figure>
        <Figure
          label="Available"
          // The pending figure itself: shown nowhere else here, and "Available 0 pts" beside a large balance
          // otherwise leaves staff guessing what is held back.
          hint={
            account.pendingBalance > 0
              ? `balance − held − ${formatPoints(account.pendingBalance)} pending`
              : 'balance − held'
          }
        >
          {figures[2]}
        </Figure>
        <Figure
          label="Status"
          hint={
            account.activeCardNumber ? <CardNumber number={account.activeCardNumber} masked /> : 'No card'
          }
        >
          {account.activeCardNumber ? (
            <Badge variant="success">Active</Badge>
          ) : (
            <Badge variant="outline">No active card</Badge>
          )}
        </Figure>
      </dl>
    </section>
  );
}
