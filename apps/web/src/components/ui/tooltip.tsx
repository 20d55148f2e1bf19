import { Tooltip as TooltipPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** Spec section 9: tooltips open at once (delay 0) and skip the delay for 300 ms after one closes. */
export function TooltipProvider({
  delayDuration = 0,
  skipDelayDuration = 300,
  ...props
}: ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <TooltipPrimitive.Provider
      delayDuration={delayDuration}
      skipDelayDuration={skipDelayDuration}
      {...props}
    />
  );
}

/**
 * Each tooltip brings its own provider (the shadcn pattern), so the signed-in shell does not import Radix's
 * tooltip and popper code on its first render: only the screens that show a tooltip load it. With a delay
 * of 0 a shared provider's skip delay changes nothing (there is no delay to skip), so the behaviour is the
 * spec's either way.
 */
export function Tooltip(props: ComponentProps<typeof TooltipPrimitive.Root>) {
  return (
    <TooltipProvider>
      <TooltipPrimitive.Root {...props} />
    </TooltipProvider>
  );
}
/**
 * Radix's trigger, except that focus moving between elements inside one trigger (an id cell's link and its
 * copy button) keeps the tooltip open: Radix would close it on the blur and open it again on the focus, and
 * the reopening's 'tooltip.open' event can reach the closing content's own listener first (Radix reports the
 * change in an effect, so the order depends on when React renders), leaving it shut — a browser test saw this
 * on a loaded machine. A blur whose default is prevented is skipped by Radix's composed handler.
 */
export function TooltipTrigger({ onBlur, ...props }: ComponentProps<typeof TooltipPrimitive.Trigger>) {
  return (
    <TooltipPrimitive.Trigger
      {...props}
      onBlur={(event) => {
        onBlur?.(event);
        const next = event.relatedTarget;
        if (next instanceof Node && event.currentTarget.contains(next)) event.preventDefault();
      }}
    />
  );
}

export function TooltipContent({
  className,
  sideOffset = 4,
  children,
  ...props
}: ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        data-slot="tooltip-content"
        sideOffset={sideOffset}
        className={cn(
          'z-50 w-fit origin-(--radix-tooltip-content-transform-origin) rounded-md bg-primary px-3 py-1.5 text-xs text-balance text-primary-foreground animate-in',
          className,
        )}
        {...props}
      >
        {children}
        <TooltipPrimitive.Arrow className="z-50 size-2.5 translate-y-[calc(-50%_-_2px)] rotate-45 rounded-[2px] bg-primary fill-primary" />
      </TooltipPrimitive.Content>
    </TooltipPrimitive.Portal>
  );
}
