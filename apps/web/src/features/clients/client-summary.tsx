import type { Account } from '@loyalty/contracts';
import type { ReactNode } from 'react';
import { CardNumber } from '@/components/cards/card-number';
import { Badge } from '@/components/ui/badge';
import { formatPoints } from '@/lib/points';
import { cn } from '@/lib/utils';

/**
 * A balance figure: the number never breaks inside itself ('123,456.7' over '8 pts' was misread), only ' pts'
 * may go to the next line. A long number shrinks to its card instead, as the dashboard's MetricCard does: its
 * size is the card's text width (the container's inline size, via container query units) over the number's
 * width in em, digits counted at 0.7 em and separators at 0.45 em (a little above the widest system fonts'
 * bold), never above text-2xl. The length of the string alone chose the size before, and a quarter of 1024 px
 * is narrower than the size it chose for '123,456.78'.
 */
function Points({ value }: { value: string }) {
  const number = value.replace(/ pts$/, '');
  const digits = number.replace(/\D/g, '').length;
  const ems = (digits * 0.7 + (number.length - digits) * 0.45).toFixed(2);
  return (
    // A block, so its lines are as high as its own size asks (text-2xl's line-height is a ratio), not the dd's.
    <span className="block" style={{ fontSize: `min(1.5rem, calc(100cqi / ${ems}))` }}>
      <span className="whitespace-nowrap">{number}</span>
      {number !== value && ' pts'}
    </span>
  );
}

/** The longest number (digits and separators) a figure in half of a 390 px phone shows on one line. */
const PHONE_HALF_DIGITS = 9;

function Figure({ label, children, hint }: { label: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-xl border bg-card p-4 shadow-sm">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      {/* The container of the figure's size (Points). Never truncates: an ellipsis hid a balance's last digits.
          On a phone a long number also gets a row of its own (ClientSummary), so it stays large. */}
      <dd className="@container text-2xl font-semibold tabular-nums">
        {typeof children === 'string' ? <Points value={children} /> : children}
      </dd>
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
