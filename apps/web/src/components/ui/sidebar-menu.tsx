import { Slot } from 'radix-ui';
import { type ComponentProps, createContext, useContext, useEffect, useState } from 'react';
import { cn } from '@/lib/utils';
import { useSidebar } from './sidebar-context';

type TooltipModule = typeof import('./sidebar-menu-tooltip');

// Radix's tooltip and its popper are not on the shell's first render: on a wide screen they load right
// after it (the entries' tooltips matter only once the sidebar is collapsed to icons), and on a phone,
// where the entries sit in the navigation sheet with their labels, never. Until then an entry is the plain
// link, which is what it renders to anyway.
let tooltipModule: TooltipModule | undefined;
let tooltipLoad: Promise<TooltipModule> | undefined;
const loadTooltip = () => {
  tooltipLoad ??= import('./sidebar-menu-tooltip').then((module) => {
    tooltipModule = module;
    return module;
  });
  return tooltipLoad;
};

const TooltipContext = createContext<TooltipModule | undefined>(undefined);

function useTooltipModule(wanted: boolean): TooltipModule | undefined {
  const [module, setModule] = useState(tooltipModule);
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    loadTooltip().then(
      (loaded) => live && setModule(loaded),
      (error: unknown) => console.error('Could not load the sidebar tooltips', error),
    );
    return () => {
      live = false;
    };
  }, [wanted, module]);
  return module;
}

export function SidebarMenu({ className, ...props }: ComponentProps<'ul'>) {
  const { isMobile } = useSidebar();
  const tooltips = useTooltipModule(!isMobile);
  return (
    <TooltipContext.Provider value={tooltips}>
      <ul
        data-slot="sidebar-menu"
        className={cn('flex w-full min-w-0 flex-col gap-1', className)}
        {...props}
      />
    </TooltipContext.Provider>
  );
}

export function SidebarMenuItem({ className, ...props }: ComponentProps<'li'>) {
  return (
    <li data-slot="sidebar-menu-item" className={cn('group/menu-item relative', className)} {...props} />
  );
}

/*
 * outline-none, not outline-hidden: Tailwind's outline-hidden draws a transparent 2 px outline, which forced
 * colours (Windows High Contrast) paint visible, so every entry looked focused; the ring is the global
 * :focus-visible one. Forced colours also paint over the current page's background: it takes the system's
 * selection colours instead.
 */
const menuButtonClass =
  'peer/menu-button flex h-8 w-full items-center gap-2 overflow-hidden rounded-md p-2 text-left text-sm outline-none transition-[width,height,padding] hover:bg-sidebar-accent hover:text-sidebar-accent-foreground active:bg-sidebar-accent disabled:pointer-events-none disabled:opacity-50 data-[active=true]:bg-sidebar-accent data-[active=true]:font-medium data-[active=true]:text-sidebar-accent-foreground forced-colors:data-[active=true]:bg-[Highlight] forced-colors:data-[active=true]:text-[HighlightText] forced-colors:data-[active=true]:forced-color-adjust-none group-data-[collapsible=icon]:size-8! group-data-[collapsible=icon]:p-2! [&>span:last-child]:truncate [&>svg]:size-4 [&>svg]:shrink-0';

/** A menu entry; when the sidebar is collapsed to icons its tooltip shows the label. */
export function SidebarMenuButton({
  asChild = false,
  isActive = false,
  tooltip,
  className,
  ...props
}: ComponentProps<'button'> & { asChild?: boolean; isActive?: boolean; tooltip?: string }) {
  const { isMobile, state } = useSidebar();
  const tooltips = useContext(TooltipContext);
  const Comp = asChild ? Slot.Root : 'button';
  const button = (
    <Comp
      data-slot="sidebar-menu-button"
      data-active={isActive}
      className={cn(menuButtonClass, className)}
      {...props}
    />
  );
  if (!tooltip || !tooltips) return button;
  return (
    <tooltips.SidebarMenuTooltip label={tooltip} hidden={state !== 'collapsed' || isMobile}>
      {button}
    </tooltips.SidebarMenuTooltip>
  );
}
