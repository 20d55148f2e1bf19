import type { Account, Card } from '@loyalty/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { CardNumber } from '@/components/cards/card-number';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { Button } from '@/components/ui/button';
import { buildUrl, isStaleDataError } from '@/lib/api-client';
import { blockCard, cardsKeys, fetchCards, reissueCard } from '@/lib/cards-api';
import { accountCardColumns, type CardAction } from './account-cards-columns';
import { AccountTableDialog } from './account-table-dialog';
import { accountErrorContext, accountsKeys } from './accounts-api';
import { useIssueCard } from './issue-card-dialog';

/** Spec section 9: the Cards dialog offers 5, 10, 20 or 50 rows, 10 by default. */
const PAGE_SIZES = [5, 10, 20, 50];
/** Spec section 4: a block from the accounts dialog carries this reason. */
const ADMIN_BLOCK_REASON = 'Blocked by admin';

function useCardMutations(onDone: () => void) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: cardsKeys.all });
    void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
  };
  const block = useMutation({
    mutationFn: (card: Card) => blockCard({ id: card.id, reason: ADMIN_BLOCK_REASON }),
    meta: { errorContext: accountErrorContext.block },
    onSuccess: () => {
      toast.success('Card blocked successfully');
      refresh();
    },
    // A 409 or 404: the card changed meanwhile (blocked or reissued elsewhere); show it as it is now.
    onError: (error) => {
      if (isStaleDataError(error)) refresh();
    },
    onSettled: onDone,
  });
  const reissue = useMutation({
    mutationFn: (card: Card) => reissueCard(card.id),
    meta: { errorContext: accountErrorContext.reissue },
    onSuccess: (issued) => {
      toast.success('Card reissued successfully', { description: `The new card is ${issued.number}` });
      refresh();
    },
    onError: (error) => {
      if (isStaleDataError(error)) refresh();
    },
    onSettled: onDone,
  });
  return { block, reissue };
}

function AccountCardsPanel({ account, canManage }: { account: Account; canManage: boolean }) {
  const table = useServerTable({ pageSize: 10 });
  const params = {
    page: table.params.page,
    size: table.params.size,
    sort: table.params.sort,
    accountId: account.id,
  };
  const query = useQuery({
    queryKey: cardsKeys.list(params),
    queryFn: ({ signal }) => fetchCards(params, signal),
    placeholderData: (previous) => previous,
    meta: { errorContext: accountErrorContext.loadCards },
  });
  const [pending, setPending] = useState<{ action: CardAction; card: Card } | null>(null);
  const { block, reissue } = useCardMutations(() => setPending(null));
  const issue = useIssueCard();
  const columns = useMemo(
    () => accountCardColumns((action, card) => setPending({ action, card }), canManage),
    [canManage],
  );

  return (
    <>
      <DataTable
        label={`Cards of ${account.clientId}`}
        exportList={{
          name: 'account-cards',
          url: buildUrl('/api/v1/cards', { accountId: account.id, sort: table.params.sort }),
        }}
        columns={columns}
        controls={table}
        getRowId={(card) => card.id}
        {...fromQuery(query)}
        pageSizeOptions={PAGE_SIZES}
        filters={
          canManage && (
            <Button size="sm" onClick={() => issue.mutate(account.id)} pending={issue.isPending}>
              <PlusIcon />
              {issue.isPending ? 'Issuing...' : 'Issue New Card'}
            </Button>
          )
        }
      />
      <ConfirmDialog
        open={pending?.action === 'block'}
        onOpenChange={(open) => !open && setPending(null)}
        title="Block Card"
        description="Are you sure you want to block this card? This action cannot be undone."
        confirmLabel="Block Card"
        pendingLabel="Blocking..."
        destructive
        pending={block.isPending}
        onConfirm={() => pending && block.mutate(pending.card)}
      >
        <CardLine card={pending?.card} />
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.action === 'reissue'}
        onOpenChange={(open) => !open && setPending(null)}
        title="Reissue Card"
        description="Are you sure you want to reissue this card? This will create a new card number."
        confirmLabel="Reissue Card"
        pendingLabel="Reissuing..."
        pending={reissue.isPending}
        onConfirm={() => pending && reissue.mutate(pending.card)}
      >
        <CardLine card={pending?.card} />
      </ConfirmDialog>
    </>
  );
}

function CardLine({ card }: { card: Card | undefined }) {
  if (!card) return null;
  return (
    <p className="text-sm">
      Card <CardNumber number={card.number} className="font-medium" />
    </p>
  );
}

/** Spec section 2 "Accounts": the Cards dialog of one account. */
export function AccountCardsDialog({
  account,
  canManage,
  onClose,
}: {
  account: Account | null;
  canManage: boolean;
  onClose: () => void;
}) {
  return (
    <AccountTableDialog account={account} onClose={onClose} title="Cards" description="Loyalty cards of">
      {(shown) => <AccountCardsPanel account={shown} canManage={canManage} />}
    </AccountTableDialog>
  );
}
