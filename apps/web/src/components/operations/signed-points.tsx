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
