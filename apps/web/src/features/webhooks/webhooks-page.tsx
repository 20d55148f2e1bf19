import type { WebhookListItem } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable, useServerTable } from '@/components/data-table';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { ForbiddenState } from '@/components/feedback/forbidden-state';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { AddWebhookDialog } from './add-webhook-dialog';
import { DeliveriesSheet } from './deliveries-sheet';
import { useSendTestEvent, useWebhookStatus } from './use-webhook-mutations';
import { useWebhookSecret } from './use-webhook-secret';
import type { WebhookAction } from './webhook-row-actions';
import { WebhookSecretDialog } from './webhook-secret-dialog';
import { webhooksListQuery } from './webhooks-api';
import { webhookColumns } from './webhooks-columns';

/** Issue 12 "Console": the endpoints that hear the programme's events (ADMIN only; the server enforces). */
export function WebhooksPage() {
  // The list is whole and unsorted on the server; the table's controls only carry its (single) page.
  const table = useServerTable({});
  const query = useQuery(webhooksListQuery);
  const [adding, setAdding] = useState(false);
  const [viewingId, setViewingId] = useState<string | null>(null);
  const [disabling, setDisabling] = useState<WebhookListItem | null>(null);
  const secret = useWebhookSecret();
  const status = useWebhookStatus(() => setDisabling(null));
  const test = useSendTestEvent((endpoint) => setViewingId(endpoint.id));
  const { reveal } = secret;
  const { mutate: changeStatus } = status;
  const { mutate: sendTest } = test;

  const columns = useMemo(() => {
    const onAction = (action: WebhookAction, endpoint: WebhookListItem) => {
      if (action === 'deliveries') setViewingId(endpoint.id);
      else if (action === 'test') sendTest(endpoint);
      else if (action === 'reveal') reveal(endpoint);
      else if (action === 'disable') setDisabling(endpoint);
      else changeStatus({ endpoint, status: 'active' });
    };
    return webhookColumns(onAction);
  }, [sendTest, reveal, changeStatus]);

  const endpoints = query.data;
  const page = useMemo(
    () => endpoints && { content: endpoints, totalElements: endpoints.length, totalPages: 1 },
    [endpoints],
  );
  const viewing = endpoints?.find((e) => e.id === viewingId) ?? null;
  const forbidden = isApiError(query.error) && query.error.status === 403;
  // From the session's role, as on Users: waiting for a 403 showed Add Endpoint to a manager while the list
  // loaded, and for good when it failed otherwise.
  const canAdd = getCurrentUser().isAdmin && !forbidden;

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive the programme's events, signed with their own secret."
        actions={
          canAdd && (
            <Button onClick={() => setAdding(true)}>
              <PlusIcon />
              Add Endpoint
            </Button>
          )
        }
      />
      {forbidden ? (
        <ForbiddenState message="You do not have permission to manage webhooks." />
      ) : (
        <DataTable
          label="Webhook endpoints"
          columns={columns}
          controls={table}
          page={page}
          getRowId={(endpoint) => endpoint.id}
          isLoading={query.isPending}
          isFetching={query.isFetching && !query.isPending}
          error={query.error}
          errorText="Failed to load webhook endpoints"
          onRefresh={() => void query.refetch()}
          emptyText="No endpoints yet. Add one to send events to another system."
        />
      )}
      <AddWebhookDialog open={adding} onOpenChange={setAdding} onCreated={secret.showCreated} />
      <WebhookSecretDialog view={secret.view} />
      <DeliveriesSheet endpoint={viewing} onClose={() => setViewingId(null)} />
      <ConfirmDialog
        open={disabling !== null}
        onOpenChange={(open) => !open && setDisabling(null)}
        title="Disable Endpoint"
        description={
          <>
            <span className="break-all font-medium text-foreground">{disabling?.url}</span> gets no new
            events; deliveries already queued wait until it is enabled again.
          </>
        }
        confirmLabel="Disable"
        pendingLabel="Disabling..."
        pending={status.isPending}
        destructive
        onConfirm={() => disabling && changeStatus({ endpoint: disabling, status: 'disabled' })}
      />
    </>
  );
}
