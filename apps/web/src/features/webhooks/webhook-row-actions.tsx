import type { WebhookListItem } from '@loyalty/contracts';
import { HistoryIcon, KeyRoundIcon, PowerIcon, PowerOffIcon, SendIcon } from 'lucide-react';
import { RowActionsMenu } from '@/components/data-table';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';

export type WebhookAction = 'deliveries' | 'test' | 'reveal' | 'enable' | 'disable';

/** One endpoint's menu: its deliveries, a test event, the audited reveal, and Enable or Disable by status. */
export function WebhookRowActions({
  endpoint,
  onAction,
}: {
  endpoint: WebhookListItem;
  onAction: (action: WebhookAction, endpoint: WebhookListItem) => void;
}) {
  return (
    <RowActionsMenu label={`Actions for ${endpoint.url}`} title={endpoint.url}>
      <DropdownMenuItem onSelect={() => onAction('deliveries', endpoint)}>
        <HistoryIcon />
        View deliveries
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction('test', endpoint)}>
        <SendIcon />
        Send test event
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onAction('reveal', endpoint)}>
        <KeyRoundIcon />
        Reveal secret
      </DropdownMenuItem>
      {endpoint.status === 'active' ? (
        <DropdownMenuItem variant="destructive" onSelect={() => onAction('disable', endpoint)}>
          <PowerOffIcon />
          Disable
        </DropdownMenuItem>
      ) : (
        <DropdownMenuItem onSelect={() => onAction('enable', endpoint)}>
          <PowerIcon />
          Enable
        </DropdownMenuItem>
      )}
    </RowActionsMenu>
  );
}
