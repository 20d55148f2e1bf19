import type { ComponentProps, FocusEvent } from 'react';
import { cn } from '@/lib/utils';

/** Room left between a focused control (its 3 px ring included) and a sticky cell's edge and shadow. */
const STICKY_GAP = 8;

/**
 * Scrolls the container so the focused control is clear of the sticky cells of its row (the actions column
 * pinned to the right edge), WCAG 2.4.11. The browser's own scroll on focus leaves a control that is partly in
 * the scrollport where it is (Chromium: any that shows 32 px or more), even when a sticky cell covers the rest,
 * and even with `scroll-padding` on the container; so the sticky cells are measured here, as wide as they are.
 */
function revealFocused(container: HTMLElement, target: Element) {
  const row = target.closest('tr');
  const cell = target.closest('td, th');
  // A control in a sticky cell stays where it is: scrolling cannot move it.
  if (!row || !cell || !container.contains(row) || getComputedStyle(cell).position === 'sticky') return;
  const view = container.getBoundingClientRect();
  let start = view.left + container.clientLeft;
  let end = start + container.clientWidth;
  for (const other of row.cells) {
    if (getComputedStyle(other).position !== 'sticky') continue;
    const box = other.getBoundingClientRect();
    if (box.left + box.width / 2 > (start + end) / 2) end = Math.min(end, box.left);
    else start = Math.max(start, box.right);
  }
  const box = target.getBoundingClientRect();
  let delta = Math.max(box.right + STICKY_GAP - end, 0);
  // A control wider than the room left keeps its start in view.
  if (box.left - delta - STICKY_GAP < start) delta = box.left - STICKY_GAP - start;
  if (delta !== 0) container.scrollLeft += delta;
}

/** The wrapper scrolls horizontally so a wide table never widens the page (390 px phones). */
export function Table({
  className,
  container,
  ...props
}: ComponentProps<'table'> & { container?: ComponentProps<'div'> & { 'data-overflow'?: boolean } }) {
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    container?.onFocus?.(event);
    if (event.target !== event.currentTarget) revealFocused(event.currentTarget, event.target);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus of the cells' controls, handled as it bubbles.
    <div
      data-slot="table-container"
      {...container}
      onFocus={onFocus}
      className={cn('relative w-full overflow-x-auto', container?.className)}
    >
      <table data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      data-slot="table-row"
      className={cn('border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted', className)}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'h-10 whitespace-nowrap px-2 text-left align-middle font-medium text-foreground [&:has([role=checkbox])]:pr-0',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return (
    <td
      data-slot="table-cell"
      className={cn('whitespace-nowrap p-2 align-middle [&:has([role=checkbox])]:pr-0', className)}
      {...props}
    />
  );
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />;
}
