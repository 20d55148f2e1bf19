import type { Card } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CardNumber } from '@/components/cards/card-number';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { blockCard, cardsKeys } from '@/lib/cards-api';
import { setServerFieldErrors } from '@/lib/form';
import { BlockReasonField, useBlockReasonForm } from './block-reason-field';

/** Spec section 2 "Loyalty Cards": block an active card with a required reason. */
export function BlockCardDialog({ card, onClose }: { card: Card | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, returnFocus, onSubmit, reset } = useBlockReasonForm((reason) => {
    if (card && !mutation.isPending) mutation.mutate({ id: card.id, reason });
  });

  const close = () => {
    onClose();
    reset();
  };

  const mutation = useMutation({
    mutationFn: blockCard,
    meta: { errorTitle: 'Failed to block card' },
    onSuccess: () => {
      toast.success('Card blocked successfully');
      void queryClient.invalidateQueries({ queryKey: cardsKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['accounts'] });
      close();
    },
    onError: (error) => setServerFieldErrors(form, error),
  });

  return (
    <Dialog open={card !== null} onOpenChange={(next) => !next && !mutation.isPending && close()}>
      <DialogContent {...returnFocus}>
        <DialogHeader>
          <DialogTitle>Block Card</DialogTitle>
          <DialogDescription>
            Block card <CardNumber number={card?.number} className="font-medium text-foreground" />. A blocked
            card can no longer earn or spend points; it can only be reissued.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <BlockReasonField
            id="block-card-reason"
            form={form}
            placeholder="e.g. Reported lost by the client"
          />
          <DialogFormFooter
            onCancel={close}
            pending={mutation.isPending}
            submitLabel="Block Card"
            pendingLabel="Blocking..."
            destructive
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
