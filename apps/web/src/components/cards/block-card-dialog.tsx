import type { Card } from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CardNumber } from '@/components/cards/card-number';
import { FormDialog } from '@/components/forms/form-dialog';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { isStaleDataError } from '@/lib/api-client';
import { blockCard, cardsKeys } from '@/lib/cards-api';
import { BlockReasonField, useBlockReasonForm } from './block-reason-field';

/** Spec section 2 "Loyalty Cards": block an active card with a required reason. */
export function BlockCardDialog({ card, onClose }: { card: Card | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: cardsKeys.all });
    void queryClient.invalidateQueries({ queryKey: ['accounts'] });
  };
  const { form, onSubmit } = useBlockReasonForm((reason) => {
    if (card) dialog.submit({ id: card.id, reason });
  });
  const dialog = useFormDialog(form, 'reason', onClose, {
    mutationFn: blockCard,
    meta: { errorTitle: 'Failed to block card' },
    onSuccess: () => {
      toast.success('Card blocked successfully');
      refresh();
    },
    // A 409 or 404 (blocked or replaced meanwhile): the list showed the card as it was, so it reloads, and the dialog
    // closes, its action being one that can no longer succeed.
    onError: (error, _vars, close) => {
      if (!isStaleDataError(error)) return;
      refresh();
      close();
    },
  });

  return (
    <FormDialog
      open={card !== null}
      dialog={dialog}
      title="Block Card"
      description={
        <>
          Block card <CardNumber number={card?.number} className="font-medium text-foreground" />. A blocked
          card can no longer earn or spend points; it can only be reissued.
        </>
      }
      onSubmit={onSubmit}
      submitLabel="Block Card"
      pendingLabel="Blocking..."
      destructive
    >
      <BlockReasonField id="block-card-reason" form={form} placeholder="e.g. Reported lost by the client" />
    </FormDialog>
  );
}
