import type { ColumnDef } from '@tanstack/react-table';
import { MoreHorizontalIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';
import { ACTIONS_COLUMN_ID } from './column-layout';

/**
 * The actions column: last, never hidden, sticky at the right edge (column-layout.ts), its header said to
 * screen readers only. `width` fits what the cell shows (56 for a ⋯ menu).
 */
export function actionsColumn<TData>(
  cell: (row: TData) => ReactNode,
  { width = 56, header = 'Actions' }: { width?: number; header?: string } = {},
): ColumnDef<TData> {
  return {
    id: ACTIONS_COLUMN_ID,
    header: () => <span className="sr-only">{header}</span>,
    enableHiding: false,
    meta: { width, className: 'text-right' },
    cell: ({ row }) => cell(row.original),
  };
}

/**
 * An item that opened a dialog has already put focus in it (its first field). Taking focus back to the ⋯
 * trigger would blur that field for a moment — enough for a form validated on blur to show its error before
 * anything was typed — and the dialog's focus trap would then pull it back anyway. The dialog returns focus
 * to the trigger itself when it closes (useReturnFocus); Escape or a plain close still refocus the trigger.
 */
function keepFocusInOpenedDialog(event: Event) {
  if (document.activeElement?.closest('[role="dialog"],[role="alertdialog"]')) event.preventDefault();
}

/**
 * A row's ⋯ menu: the trigger names the row for screen readers ('Actions for …'), the menu opens with the
 * row's name as its title, then the row's DropdownMenuItems. Not modal, so the table keeps scrolling.
 */
export function RowActionsMenu({
  label,
  title,
  titleClassName,
  children,
}: {
  /** The trigger's accessible name, e.g. 'Actions for alice'. */
  label: string;
  title: ReactNode;
  titleClassName?: string;
  children: ReactNode;
}) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={label}>
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" onCloseAutoFocus={keepFocusInOpenedDialog}>
        <DropdownMenuLabel className={cn('max-w-48 truncate', titleClassName)}>{title}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {children}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
