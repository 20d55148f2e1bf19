import type { Account } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { cardsKeys, issueCard } from '@/lib/cards-api';
import { forgetKey, forgetKeyIfRefused, keyFor } from '@/lib/idempotency-key';
import { accountErrorContext, accountsKeys } from './accounts-api';

/**
 * What names an issue for its Idempotency-Key (lib/idempotency-key.ts): a card for this account asked for
 * again after a failure whose issue may have committed (no answer, a 5xx) reuses the key and gets the card
 * issued the first time, not a second one. A success or the server's own refusal forgets it.
 */
const issueRequest = (accountId: string) => `issue-card:${accountId}`;

/** Shared by the row menu's Issue Card and the Cards dialog's Issue New Card. */
export function useIssueCard(onIssued?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) =>
      issueCard({ accountId, idempotencyKey: keyFor(issueRequest(accountId)) }),
    meta: { errorContext: accountErrorContext.issue },
    onError: (error, accountId) => forgetKeyIfRefused(issueRequest(accountId), error),
    onSuccess: (_card, accountId) => {
      forgetKey(issueRequest(accountId));
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
