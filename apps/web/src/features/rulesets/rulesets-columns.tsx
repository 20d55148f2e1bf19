import type { Ruleset } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { Badge } from '@/components/ui/badge';
import { formatNumber } from '@/lib/format';
import { programmeTimeLabel, zonedDateAndTime } from '@/lib/programme-time';
import { RulesetStatusBadge } from './ruleset-status-badge';

/**
 * Column ids are the server's sort fields (version, activeFrom, percent). The version opens the ruleset's
 * details (all its rules, and its backtest): a button, so the keyboard reaches it too. Active From is on the
 * programme's clocks (`timeZone`), as it was typed, whatever the browser's zone.
 */
export const rulesetColumns = (
  onOpen: (ruleset: Ruleset) => void,
  timeZone: string,
): ColumnDef<Ruleset>[] => [
  {
    accessorKey: 'version',
    header: 'Version',
    enableSorting: true,
    enableHiding: false,
    // The version and its badges wrap onto a second line rather than cut 'In force' off: an automatic
    // version is ten digits (seconds), and with '3 rules' beside it the three need about 230 px.
    meta: { width: 168, className: 'whitespace-normal' },
    cell: ({ row }) => (
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <button
          type="button"
          className="font-medium tabular-nums text-brand underline-offset-4 hover:underline focus-visible:underline"
          onClick={() => onOpen(row.original)}
          title="Open its details"
        >
          {row.original.version}
        </button>
        {row.original.config.rules.length > 0 && (
          <Badge variant="secondary" title="Rules beyond the Accrual Percentage">
            {row.original.config.rules.length} {row.original.config.rules.length === 1 ? 'rule' : 'rules'}
          </Badge>
        )}
        {row.original.inForce && (
          <Badge
            variant="outline"
            className="border-brand text-brand"
            title="The ruleset the POS applies now"
          >
            In force
          </Badge>
        )}
      </span>
    ),
  },
  {
    accessorKey: 'status',
    header: 'Status',
    meta: { width: 110 },
    cell: ({ row }) => <RulesetStatusBadge status={row.original.status} />,
  },
  {
    accessorKey: 'activeFrom',
    header: 'Active From',
    enableSorting: true,
    meta: { width: 196 },
    cell: ({ row }) => <ActiveFromCell value={row.original.activeFrom} timeZone={timeZone} />,
  },
  {
    accessorKey: 'createdBy',
    header: 'Created By',
    meta: { minWidth: 120 },
  },
  {
    id: 'percent',
    accessorFn: (ruleset) => ruleset.config.percent,
    header: 'Accrual %',
    enableSorting: true,
    meta: { className: 'text-right', label: 'Accrual %', width: 124 },
    cell: ({ row }) => <span className="tabular-nums">{formatNumber(row.original.config.percent)}%</span>,
  },
];

/**
 * Programme time on two lines, as the other tables' dates (DateTimeCell): the date, then the time with the
 * zone's short name, smaller; one line cut off the zone ('Dec 10, 2031, 12:00 P…') in 196 px.
 */
function ActiveFromCell({ value, timeZone }: { value: string | null; timeZone: string }) {
  const parts = zonedDateAndTime(value, timeZone);
  if (!value || !parts) return '—';
  return (
    <time dateTime={value} title={programmeTimeLabel(timeZone)} className="block leading-tight">
      <span className="block">{parts.date}</span>
      {/* Read (and copied) as one: 'Dec 1, 2026, 12:00 AM GMT+1'. */}
      <span className="sr-only">, </span>
      <span className="block text-xs text-muted-foreground">{parts.time}</span>
    </time>
  );
}
