import type { Card } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { CardNumber } from '@/components/cards/card-number';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { blockCard, cardsKeys } from '@/lib/cards-api';
import { useReturnFocus } from '@/lib/use-return-focus';

export const BLOCK_REASON_REQUIRED = 'Block reason is required';

/** Spec section 2 "Loyalty Cards": block an active card with a required reason. */
export function BlockCardDialog({ card, onClose }: { card: Card | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    reasonRef.current?.focus();
  });

  const close = () => {
    onClose();
    setReason('');
    setInvalid(false);
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
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    // Spec section 5 "Block card": a card must be selected and the trimmed reason non-empty.
    if (!card || !reason.trim()) {
      setInvalid(true);
      toast.error(BLOCK_REASON_REQUIRED);
      reasonRef.current?.focus();
      return;
    }
    mutation.mutate({ id: card.id, reason: reason.trim() });
  };

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
              ref={reasonRef}
              required
              maxLength={500}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                if (invalid) setInvalid(false);
              }}
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
