import type { ReactNode } from 'react';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { CopyButton } from './copy-button';

export interface IdCellProps {
  /** The full value: shown in the tooltip and copied. */
  value: string | null | undefined;
  /** What it is, lower case after "Copy": 'operation ID', 'card number'. */
  label: string;
  /** What the cell shows instead of the plain value, e.g. a link to the client page. */
  children?: ReactNode;
  /** Shown when there is no value. */
  empty?: ReactNode;
  className?: string;
}

/**
 * An id on one line: cut with an ellipsis when the column is narrower, the full value in a tooltip (on
 * hover, and on focus of the copy button or a link inside), and a copy button. Never wraps.
 */
export function IdCell({ value, label, children, empty, className }: IdCellProps) {
  if (!value) return <span className="text-muted-foreground">{empty ?? '—'}</span>;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span data-slot="id-cell" className={cn('flex min-w-0 max-w-full items-center gap-0.5', className)}>
          <span data-slot="id-cell-value" className="min-w-0 truncate font-mono text-xs tabular-nums">
            {children ?? value}
          </span>
          <CopyButton value={value} label={label} />
        </span>
      </TooltipTrigger>
      <TooltipContent className="font-mono">{value}</TooltipContent>
    </Tooltip>
  );
}
