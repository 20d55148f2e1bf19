import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';

/** One list of the client page: a titled region (h2) with the list's total next to its title. */
export function ClientSection({
  id,
  title,
  total,
  description,
  children,
}: {
  id: string;
  title: string;
  total: number | undefined;
  description?: string;
  children: ReactNode;
}) {
  const headingId = `client-${id}-heading`;
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3" data-testid={`client-${id}`}>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        {total !== undefined && (
          <Badge variant="secondary" data-testid="section-total">
            {total}
            <span className="sr-only"> total</span>
          </Badge>
        )}
        {description && <p className="w-full text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}
