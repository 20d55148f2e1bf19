import { blockCardDialogRequest, type Card } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CardNumber } from '@/components/cards/card-number';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { blockCard, cardsKeys } from '@/lib/cards-api';
import { setServerFieldErrors, useZodForm } from '@/lib/form';
import { useReturnFocus } from '@/lib/use-return-focus';

/** Spec section 2 "Loyalty Cards": block an active card with a required reason. */
export function BlockCardDialog({ card, onClose }: { card: Card | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(blockCardDialogRequest, { defaultValues: { reason: '' } });
  const invalid = Boolean(form.formState.errors.reason);
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    form.setFocus('reason');
  });

  const close = () => {
    onClose();
    form.reset({ reason: '' });
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

  // Spec section 5 "Block card": a card must be selected and the trimmed reason non-empty; the spec
  // reports a blank reason as a toast ('Block reason is required').
  const onSubmit = form.handleSubmit(
    ({ reason }) => {
      if (card && !mutation.isPending) mutation.mutate({ id: card.id, reason });
    },
    (errors) => {
      if (errors.reason?.message) toast.error(errors.reason.message);
    },
  );

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
          <div className="grid gap-2">
            <Label htmlFor="block-card-reason">Block Reason</Label>
            <Textarea
              id="block-card-reason"
              required
              maxLength={500}
              {...form.register('reason')}
              placeholder="e.g. Reported lost by the client"
              aria-invalid={invalid ? true : undefined}
            />
          </div>
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
