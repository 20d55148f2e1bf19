import type { Ruleset } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { Badge } from '@/components/ui/badge';
import { formatDateTime, formatNumber } from '@/lib/format';
import { RulesetStatusBadge } from './ruleset-status-badge';

/** Column ids are the server's sort fields (version, activeFrom, percent). */
export const rulesetColumns: ColumnDef<Ruleset>[] = [
  {
    accessorKey: 'version',
    header: 'Version',
    enableSorting: true,
    enableHiding: false,
    meta: { width: 150 },
    cell: ({ row }) => (
      <span className="flex items-center gap-2">
        <span className="font-medium tabular-nums">{row.original.version}</span>
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
    cell: ({ row }) => formatDateTime(row.original.activeFrom, '—'),
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
