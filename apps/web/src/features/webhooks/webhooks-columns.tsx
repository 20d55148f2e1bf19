import { WEBHOOK_BACKLOG_CAP, type WebhookListItem } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { actionsColumn } from '@/components/data-table';
import { formatDateTime, formatNumber, formatTimeAgo } from '@/lib/format';
import { type WebhookAction, WebhookRowActions } from './webhook-row-actions';
import { DeliveryStatusBadge, WebhookStatusBadge } from './webhook-status';

function Muted({ children }: { children: string }) {
  return <span className="text-muted-foreground">{children}</span>;
}

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** The server counts up to the cap, so the cap itself means "at least". */
function backlogText(backlog: number): string {
  if (backlog >= WEBHOOK_BACKLOG_CAP) return `${formatNumber(WEBHOOK_BACKLOG_CAP)}+ events`;
  return `${formatNumber(backlog)} ${backlog === 1 ? 'event' : 'events'}`;
}

/** What the endpoint still has to get, and how long its oldest waiting event has waited. */
function Backlog({ backlog, since }: { backlog: number | null; since: string | null }) {
  // A disabled endpoint has none: enabled again, it starts from then.
  if (backlog === null) {
    return (
      <span className="text-muted-foreground" title="Disabled">
        <span aria-hidden="true">—</span>
        <span className="sr-only">Disabled</span>
      </span>
    );
  }
  if (backlog === 0) return <Muted>Up to date</Muted>;
  return (
    <div className="min-w-0">
      <span className="block truncate">{backlogText(backlog)}</span>
      {since && (
        <span className="block truncate text-xs text-muted-foreground" title={formatDateTime(since)}>
          oldest {formatTimeAgo(since)}
        </span>
      )}
    </div>
  );
}

/**
 * The list comes whole from the server, oldest first: no server sort, so no column sorts. The widths add up
 * to the 976 px a 1280 px window leaves beside the sidebar, so there the whole row shows without scrolling.
 */
export function webhookColumns(
  onAction: (action: WebhookAction, endpoint: WebhookListItem) => void,
): ColumnDef<WebhookListItem>[] {
  return [
    {
      accessorKey: 'url',
      header: 'URL',
      enableHiding: false,
      meta: { minWidth: 170 },
      cell: ({ row }) => (
        <div className="min-w-0">
          <span className="block truncate font-medium" title={row.original.url}>
            {row.original.url}
          </span>
          {row.original.description && (
            <span className="block truncate text-xs text-muted-foreground" title={row.original.description}>
              {row.original.description}
            </span>
          )}
        </div>
      ),
    },
    {
      accessorKey: 'eventTypes',
      header: 'Events',
      meta: { minWidth: 126 },
      cell: ({ row }) => {
        const types = row.original.eventTypes;
        const all = types.join(', ');
        return (
          <span className="block truncate" title={all}>
            {types.length <= 2 ? all : `${types.slice(0, 2).join(', ')} +${types.length - 2}`}
          </span>
        );
      },
    },
    {
      accessorKey: 'status',
      header: 'Status',
      meta: { width: 90 },
      cell: ({ row }) => <WebhookStatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'lastDeliveryAt',
      header: 'Last Delivery',
      meta: { width: 280 },
      cell: ({ row }) => {
        const { lastDeliveryAt, lastDeliveryStatus } = row.original;
        if (!lastDeliveryAt || !lastDeliveryStatus) return <Muted>Never</Muted>;
        return (
          <span className="flex items-center gap-2">
            {/* A pending last delivery has been attempted (that is how it got a time): it is retrying. */}
            <DeliveryStatusBadge status={lastDeliveryStatus} attempts={1} />
            <span className="truncate">{formatDateTime(lastDeliveryAt)}</span>
          </span>
        );
      },
    },
    {
      accessorKey: 'successRate',
      header: 'Success Rate',
      meta: { width: 110 },
      cell: ({ row }) =>
        row.original.successRate === null ? <Muted>N/A</Muted> : percent.format(row.original.successRate),
    },
    {
      accessorKey: 'backlog',
      header: 'Backlog',
      meta: { width: 140 },
      cell: ({ row }) => <Backlog backlog={row.original.backlog} since={row.original.backlogSince} />,
    },
    actionsColumn((endpoint) => <WebhookRowActions endpoint={endpoint} onAction={onAction} />),
  ];
}
