import type { CSSProperties, ReactNode } from 'react';
import { useId } from 'react';
import { Card, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

/** A figure that failed to load reads as a dash, never as a misleading 0. */
export const NO_VALUE = '—';

/** Up to this many characters a figure fits the narrowest card (about 164 px of text) at the usual sizes. */
const SHORT_FIGURE = 10;

/**
 * A figure never breaks inside itself (a total read as '8,999,999,999.' over '91' is misread), so a long one
 * shrinks to the card's width instead: its size is the text width (the card's inline size less its 3 rem of
 * padding, via the card's container query units) over the figure's width in em. Digits are counted at 0.7 em
 * and separators at 0.45 em, a little above the widest system fonts' bold (DejaVu Sans: 0.696 and 0.38), so
 * any font fits; it is never larger than the short figures' 1.5 rem.
 */
function valueStyle(value: string | undefined): { className: string; style?: CSSProperties } {
  if (!value || value.length <= SHORT_FIGURE) return { className: 'text-2xl @[250px]/card:text-3xl' };
  const digits = value.replace(/\D/g, '').length;
  const ems = (digits * 0.7 + (value.length - digits) * 0.45).toFixed(2);
  return { className: 'leading-8', style: { fontSize: `min(1.5rem, calc((100cqi - 3rem) / ${ems}))` } };
}

/** One of the four metric cards (dashboard-01 'section cards'): a title, a figure, a footer. */
export function MetricCard({
  title,
  icon,
  value,
  unit,
  loading,
  children,
}: {
  title: string;
  icon: ReactNode;
  value: string | undefined;
  unit?: string;
  loading: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  const size = valueStyle(value);
  const showUnit = unit !== undefined && value !== undefined;
  return (
    <Card
      role="group"
      aria-labelledby={titleId}
      aria-busy={loading}
      className="@container/card gap-4 bg-linear-to-t from-primary/5 to-card dark:bg-card"
    >
      <CardHeader className="gap-2">
        <div className="flex items-center justify-between gap-2">
          <CardTitle id={titleId} className="text-sm font-medium text-muted-foreground">
            {title}
          </CardTitle>
          <span className="text-muted-foreground [&_svg]:size-4" aria-hidden="true">
            {icon}
          </span>
        </div>
        {loading ? (
          <Skeleton className="h-8 w-32" />
        ) : (
          <p className={cn('font-semibold tabular-nums', size.className)} style={size.style}>
            <span className={cn('whitespace-nowrap', showUnit && 'me-1')}>{value ?? NO_VALUE}</span>
            {showUnit && (
              <>
                {/* The unit may go to the next line, as a whole word; the figure stays on one. */}
                <wbr />
                <span className="text-sm font-normal text-muted-foreground">{unit}</span>
              </>
            )}
          </p>
        )}
      </CardHeader>
      <CardFooter className="flex-col items-start gap-1 text-sm">
        {loading ? <Skeleton className="h-4 w-40" /> : children}
      </CardFooter>
    </Card>
  );
}
