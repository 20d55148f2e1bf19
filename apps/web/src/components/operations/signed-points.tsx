import { MAX_BALANCE } from '@loyalty/contracts';
import { formatSignedPoints, pointsToneClass } from '@/lib/points';
import { cn } from '@/lib/utils';

/** "+12.5" in green or "-3" in red. */
export function SignedPoints({ value, className }: { value: number | string; className?: string }) {
  return (
    <span className={cn('font-medium tabular-nums', pointsToneClass(value), className)}>
      {formatSignedPoints(value)}
    </span>
  );
}

/**
 * Width of a column of SignedPoints: the widest value an operation can hold (numeric(14, 2), the balance
 * limit: '+999,999,999,999.99', whichever sign) whole. In `ch` (the width of '0') rather than px, so it
 * follows whatever font the system stack resolves to: 1ch a digit, 0.5ch a comma or the point, 1.5ch the
 * sign (a '+' is wider than a digit), plus the cell's 0.5rem padding each side. With DejaVu Sans, the
 * widest font of the stack, the text takes 154 px of the 156 this gives. A px width sized for seven
 * figures cut nine to '+123,456,78…'.
 */
export const SIGNED_POINTS_COLUMN_WIDTH = signedPointsWidth(formatSignedPoints(MAX_BALANCE));

function signedPointsWidth(widest: string): string {
  const digits = widest.replace(/\D/g, '').length;
  const separators = widest.replace(/[^.,]/g, '').length;
  return `calc(${digits + separators * 0.5 + 1.5}ch + 1rem)`;
}
