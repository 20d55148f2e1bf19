import type { BulkBlockCardsResponse, Card } from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { BlockReasonField, useBlockReasonForm } from '@/components/cards/block-reason-field';
import { FormDialog } from '@/components/forms/form-dialog';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { blockCards, cardsKeys } from '@/lib/cards-api';

const plural = (n: number) => `${n} card${n === 1 ? '' : 's'}`;
/** The dialog's title, in the title case of the spec's dialog titles ('Block Card'). */
const titleOf = (n: number) => `Block ${n} Card${n === 1 ? '' : 's'}`;

/** What happened, once: how many were blocked, and why any were not. */
function reportOutcome(outcome: BulkBlockCardsResponse, numbers: Map<string, string>) {
  const failures = outcome.results.filter((r) => r.outcome === 'failed');
  if (failures.length === 0) {
    toast.success(`${plural(outcome.blocked)} blocked`);
    return;
  }
  const why = failures.map((f) => `${numbers.get(f.id) ?? f.id}: ${f.error?.message ?? 'not blocked'}`);
  toast.warning(`${plural(outcome.blocked)} blocked, ${plural(outcome.failed)} not`, {
    description: why.join('; '),
  });
}

/**
 * "Block selected" on Loyalty Cards: one reason for every selected active card, one server call
 * (`POST /api/v1/cards/block`). Selected cards that are not active are named and left alone.
 */
export function BlockCardsDialog({
  cards,
  onClose,
  onBlocked,
}: {
  cards: Card[] | null;
  onClose: () => void;
  onBlocked: () => void;
}) {
  const queryClient = useQueryClient();
  const { form, onSubmit } = useBlockReasonForm((reason) => {
    if (active.length > 0) dialog.submit({ ids: active.map((c) => c.id), reason });
  });
  const active = (cards ?? []).filter((card) => card.status === 'active');
  const skipped = (cards?.length ?? 0) - active.length;
  const dialog = useFormDialog(form, 'reason', onClose, {
    mutationFn: blockCards,
    meta: { errorTitle: 'Failed to block cards' },
    onSuccess: (outcome) => {
      reportOutcome(outcome, new Map(active.map((card) => [card.id, card.number])));
      void queryClient.invalidateQueries({ queryKey: cardsKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['accounts'] });
      onBlocked();
    },
  });

  return (
    <FormDialog
      open={cards !== null}
      dialog={dialog}
      title={titleOf(active.length)}
      description={
        <>
          Every selected active card is blocked with this reason. A blocked card can no longer earn or spend
          points; it can only be reissued.
          {skipped > 0 &&
            ` ${plural(skipped)} of the selection ${skipped === 1 ? 'is' : 'are'} not active and stay as they are.`}
        </>
      }
      intro={
        <ul className="flex max-h-28 flex-wrap gap-1.5 overflow-y-auto" aria-label="Cards to block">
          {active.map((card) => (
            <li key={card.id} className="rounded-md border px-2 py-0.5 font-mono text-xs tabular-nums">
              {card.number}
            </li>
          ))}
        </ul>
      }
      onSubmit={onSubmit}
      submitLabel={`Block ${plural(active.length)}`}
      pendingLabel="Blocking..."
      destructive
    >
      <BlockReasonField
        id="block-cards-reason"
        form={form}
        placeholder="e.g. Batch reported stolen from the store"
      />
    </FormDialog>
  );
}
