import type { Card } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CardNumber } from '@/components/cards/card-number';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { isStaleDataError } from '@/lib/api-client';
import { cardsKeys, reissueCard } from '@/lib/cards-api';

/** Spec section 2 "Loyalty Cards": a blocked card gets a new number for the same account. */
export function ReissueCardDialog({ card, onClose }: { card: Card | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: reissueCard,
    meta: { errorTitle: 'Failed to reissue card' },
    onSuccess: (issued) => {
      // The spec's title, and the new number so staff can hand it over without searching.
      toast.success('Card reissued successfully', { description: `The new card is ${issued.number}` });
    },
    // A 409 or 404 (reissued meanwhile): the list showed the card as it was, so it reloads too.
    onSettled: (_issued, error) => {
      if (!error || isStaleDataError(error)) {
        void queryClient.invalidateQueries({ queryKey: cardsKeys.all });
        void queryClient.invalidateQueries({ queryKey: ['accounts'] });
      }
      onClose();
    },
  });

  return (
    <ConfirmDialog
      open={card !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Reissue Card"
      description="Are you sure you want to reissue this card? This will create a new card number."
      confirmLabel="Reissue Card"
      pendingLabel="Reissuing..."
      pending={mutation.isPending}
      onConfirm={() => card && mutation.mutate(card.id)}
    >
      {card && (
        <p className="text-sm">
          Card <CardNumber number={card.number} className="font-medium" />
        </p>
      )}
    </ConfirmDialog>
  );
}
