import type { ReactElement } from 'react';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

/**
 * A sidebar entry's label as a tooltip beside its icon, shown only while the sidebar is collapsed to icons
 * (`hidden` otherwise). Its own chunk: see sidebar-menu.tsx.
 */
export function SidebarMenuTooltip({
  label,
  hidden,
  children,
}: {
  label: string;
  hidden: boolean;
  children: ReactElement;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right" align="center" hidden={hidden}>
        {label}
      </TooltipContent>
    </Tooltip>
  );
}
