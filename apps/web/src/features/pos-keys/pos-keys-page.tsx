import { type PosKey, posKeyListQuery } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { buildUrl } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { AddPosKeyDialog } from './add-pos-key-dialog';
import type { PosKeyAction } from './pos-key-row-actions';
import { PosKeyStatusFilter } from './pos-key-status';
import { type PosKeyFilters, posKeysListQuery } from './pos-keys-api';
import { posKeyColumns } from './pos-keys-columns';
import { RevealPosKeyDialog } from './reveal-pos-key-dialog';
import { usePosKeyStatus } from './use-pos-key-status';
import { useRevealPosKey } from './use-reveal-pos-key';

/** Spec section 2 "POS Keys": every role reads; managers add and toggle; only administrators reveal. */
export function PosKeysPage() {
  const table = useServerTable<PosKeyFilters>({
    initialFilters: { status: undefined },
    defaultSort: [{ id: 'createdAt', desc: true }],
    inUrl: posKeyListQuery,
  });
  const query = useQuery(posKeysListQuery(table.params));
  const { canManage, isAdmin } = getCurrentUser();
  const [adding, setAdding] = useState(false);
  const [deactivating, setDeactivating] = useState<PosKey | null>(null);
  const reveal = useRevealPosKey();
  const status = usePosKeyStatus(() => setDeactivating(null));
  const { open: openReveal } = reveal;
  const { mutate: changeStatus } = status;

  const columns = useMemo(() => {
    const onAction = (action: PosKeyAction, posKey: PosKey) => {
      if (action === 'reveal') openReveal(posKey);
      else if (action === 'deactivate') setDeactivating(posKey);
      else changeStatus({ posKey, status: 'active' });
    };
    return posKeyColumns({ onAction, canManage, canReveal: isAdmin });
  }, [openReveal, changeStatus, canManage, isAdmin]);

  return (
    <>
      <PageHeader
        title="POS Keys"
        description="API keys of the tills that earn and redeem points."
        actions={
          canManage && (
            <Button onClick={() => setAdding(true)}>
              <PlusIcon />
              Add POS Key
            </Button>
          )
        }
      />
      <DataTable
        label="POS keys"
        exportList={{ name: 'pos-keys', url: buildUrl('/api/v1/pos-keys', table.params) }}
        columns={columns}
        controls={table}
        getRowId={(posKey) => posKey.id}
        {...fromQuery(query)}
        errorText="Failed to load POS keys"
        searchable
        searchLabel="Search POS keys"
        searchPlaceholder="Search name or address..."
        filters={
          <PosKeyStatusFilter
            value={table.filters.status}
            onChange={(value) => table.setFilter('status', value)}
          />
        }
      />
      {canManage && <AddPosKeyDialog open={adding} onOpenChange={setAdding} />}
      {isAdmin && <RevealPosKeyDialog reveal={reveal} />}
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => !open && setDeactivating(null)}
        title="Deactivate POS Key"
        description={
          <>
            Tills using <span className="font-medium text-foreground">{deactivating?.name}</span> will be
            refused until the key is activated again.
          </>
        }
        confirmLabel="Deactivate"
        pendingLabel="Deactivating..."
        pending={status.isPending}
        destructive
        onConfirm={() => deactivating && changeStatus({ posKey: deactivating, status: 'inactive' })}
      />
    </>
  );
}
