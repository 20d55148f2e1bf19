import type { ReactNode } from 'react';
import { useId } from 'react';
import { Card, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

/** A figure that failed to load reads as a dash, never as a misleading 0. */
export const NO_VALUE = '—';

// Long figures (a million points with decimals) step down a size rather than being cut off.
function valueSize(value: string | undefined): string {
  return (value?.length ?? 0) > 10 ? 'text-xl @[250px]/card:text-2xl' : 'text-2xl @[250px]/card:text-3xl';
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
          <p className={cn('font-semibold tabular-nums [overflow-wrap:anywhere]', valueSize(value))}>
            {value ?? NO_VALUE}
            {unit && value !== undefined && (
              <span className="ml-1 text-sm font-normal text-muted-foreground">{unit}</span>
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
