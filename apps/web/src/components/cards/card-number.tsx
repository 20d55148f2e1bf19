import { maskCardNumber } from '@/lib/mask';
import { cn } from '@/lib/utils';

/** A card number in tabular digits; `masked` shows "****1234" with the full number kept out of the DOM. */
export function CardNumber({
  number,
  masked = false,
  empty = 'No card',
  className,
}: {
  number: string | null | undefined;
  masked?: boolean;
  empty?: string;
  className?: string;
}) {
  const shown = masked ? maskCardNumber(number) : number?.trim() || null;
  if (!shown) return <span className="text-muted-foreground">{empty}</span>;
  return <span className={cn('font-mono tabular-nums', className)}>{shown}</span>;
}
