import type { Ruleset } from '@loyalty/contracts';
import { ArchiveIcon } from 'lucide-react';
import { actionsColumn, RowActionsMenu } from '@/components/data-table';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';

/** The actions column, for administrators: Retire on every ruleset not yet retired. */
export function rulesetActionsColumn(onRetire: (ruleset: Ruleset) => void) {
  return actionsColumn<Ruleset>((ruleset) =>
    ruleset.status === 'Retired' ? null : (
      <RowActionsMenu
        label={`Actions for ruleset ${ruleset.version}`}
        title={`Version ${ruleset.version}`}
        titleClassName="tabular-nums"
      >
        <DropdownMenuItem variant="destructive" onSelect={() => onRetire(ruleset)}>
          <ArchiveIcon />
          Retire
        </DropdownMenuItem>
      </RowActionsMenu>
    ),
  );
}
