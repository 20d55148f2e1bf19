import type { WebhookListItem } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { actionsColumn } from '@/components/data-table';
import { formatDateTime } from '@/lib/format';
import { type WebhookAction, WebhookRowActions } from './webhook-row-actions';
import { DeliveryStatusBadge, WebhookStatusBadge } from './webhook-status';

function Muted({ children }: { children: string }) {
  return <span className="text-muted-foreground">{children}</span>;
}

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** The list comes whole from the server, oldest first: no server sort, so no column sorts. */
export function webhookColumns(
  onAction: (action: WebhookAction, endpoint: WebhookListItem) => void,
): ColumnDef<WebhookListItem>[] {
  return [
    {
      accessorKey: 'url',
      header: 'URL',
      enableHiding: false,
      meta: { minWidth: 220 },
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
      meta: { minWidth: 160 },
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
      meta: { width: 110 },
      cell: ({ row }) => <WebhookStatusBadge status={row.original.status} />,
    },
    {
      accessorKey: 'lastDeliveryAt',
      header: 'Last Delivery',
      meta: { width: 290 },
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
      meta: { width: 120 },
      cell: ({ row }) =>
        row.original.successRate === null ? <Muted>N/A</Muted> : percent.format(row.original.successRate),
    },
    actionsColumn((endpoint) => <WebhookRowActions endpoint={endpoint} onAction={onAction} />),
  ];
}
