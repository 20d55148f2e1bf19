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
  /**
   * Two lines instead of one, broken anywhere, the copy button after the last character: where rows are two
   * lines high anyway and the column cannot grow (the Operation ID at 1280 px with the sidebar open), an id of
   * ~20 characters shows whole ('op-20261109-' over '000123') instead of 'op-20261…'. Longer ids are cut at
   * the end of the second line, the full value still in the tooltip.
   */
  wrap?: boolean;
}

/**
 * An id on one line: cut with an ellipsis when the column is narrower, the full value in a tooltip (on
 * hover, and on focus of the copy button or a link inside), and a copy button. Never wraps.
 */
export function IdCell({ value, label, children, empty, className, wrap }: IdCellProps) {
  if (!value) return <span className="text-muted-foreground">{empty ?? '—'}</span>;
  if (wrap) {
    return (
      <Tooltip>
        <TooltipTrigger asChild>
          <span data-slot="id-cell" className={cn('block min-w-0 max-w-full', className)}>
            <span
              data-slot="id-cell-value"
              className="line-clamp-2 whitespace-normal break-all font-mono text-xs tabular-nums"
            >
              {children ?? value}
              {/* In the text's flow, after its last character; its line grows to hold it, so the clamp (which hides
                  overflow) cuts neither the button nor, drawn inside it, its focus ring. */}
              <CopyButton value={value} label={label} className="focus-inset ml-0.5 align-middle" />
            </span>
          </span>
        </TooltipTrigger>
        <TooltipContent className="font-mono">{value}</TooltipContent>
      </Tooltip>
    );
  }
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span data-slot="id-cell" className={cn('flex min-w-0 max-w-full items-center gap-0.5', className)}>
          {/* Its own direction: a right-to-left client ID keeps its beginning when cut (user-text.tsx). */}
          <span
            dir="auto"
            data-slot="id-cell-value"
            className="min-w-0 truncate font-mono text-xs tabular-nums"
          >
            {children ?? value}
          </span>
          <CopyButton value={value} label={label} />
        </span>
      </TooltipTrigger>
      <TooltipContent className="font-mono">{value}</TooltipContent>
    </Tooltip>
  );
}
