import type { Account } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { cardsKeys, issueCard } from '@/lib/cards-api';
import { accountErrorContext, accountsKeys } from './accounts-api';

/** Shared by the row menu's Issue Card and the Cards dialog's Issue New Card. */
export function useIssueCard(onIssued?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueCard,
    meta: { errorContext: accountErrorContext.issue },
    onSuccess: () => {
      toast.success('Card issued successfully');
      void queryClient.invalidateQueries({ queryKey: cardsKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
    },
    onSettled: onIssued,
  });
}

export function IssueCardDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const mutation = useIssueCard(onClose);
  return (
    <ConfirmDialog
      open={account !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Issue Card"
      description={
        <>
          Issue a new loyalty card to <span className="font-medium text-foreground">{account?.clientId}</span>
          ?
        </>
      }
      confirmLabel="Issue Card"
      pendingLabel="Issuing..."
      pending={mutation.isPending}
      onConfirm={() => account && mutation.mutate(account.id)}
    />
  );
}
