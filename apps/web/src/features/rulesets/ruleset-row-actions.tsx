import type { Ruleset } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { ArchiveIcon, MoreHorizontalIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

/** The actions column, for administrators: Retire on every ruleset not yet retired. */
export function rulesetActionsColumn(onRetire: (ruleset: Ruleset) => void): ColumnDef<Ruleset> {
  return {
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    enableHiding: false,
    meta: { width: 56, className: 'text-right' },
    cell: ({ row }) =>
      row.original.status === 'Retired' ? null : (
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`Actions for ruleset ${row.original.version}`}>
              <MoreHorizontalIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuLabel className="tabular-nums">Version {row.original.version}</DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={() => onRetire(row.original)}>
              <ArchiveIcon />
              Retire
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      ),
  };
}
