import type { Card } from '@loyalty/contracts';
import { BanIcon, RefreshCcwIcon } from 'lucide-react';
import { useCallback, useState } from 'react';
import { actionsColumn, RowActionsMenu } from '@/components/data-table';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { BlockCardDialog } from './block-card-dialog';
import { ReissueCardDialog } from './reissue-card-dialog';

export type CardAction = 'block' | 'reissue';

/**
 * Spec section 2: Block Card only when active, Reissue Card only when blocked and not yet reissued (a
 * card is replaced once); a pending card has none.
 */
export function CardRowActions({
  card,
  onAction,
}: {
  card: Card;
  onAction: (action: CardAction, card: Card) => void;
}) {
  const canReissue = card.status === 'blocked' && !card.replacedBy;
  if (card.status !== 'active' && !canReissue) return null;
  return (
    <RowActionsMenu label={`Actions for card ${card.number}`} title={card.number} titleClassName="font-mono">
      {card.status === 'active' && (
        <DropdownMenuItem variant="destructive" onSelect={() => onAction('block', card)}>
          <BanIcon />
          Block Card
        </DropdownMenuItem>
      )}
      {canReissue && (
        <DropdownMenuItem onSelect={() => onAction('reissue', card)}>
          <RefreshCcwIcon />
          Reissue Card
        </DropdownMenuItem>
      )}
    </RowActionsMenu>
  );
}

/** The ⋯ column of a card table, for those who may block and reissue. */
export function cardActionsColumn<T extends Card>(onAction: (action: CardAction, card: Card) => void) {
  return actionsColumn<T>((card) => <CardRowActions card={card} onAction={onAction} />);
}

/**
 * What a card table's row menu opens: `onAction` (stable, for the columns' memo) remembers the card and
 * the action, `dialogs` are the Block Card and Reissue Card dialogs it opens.
 */
export function useCardRowActions() {
  const [open, setOpen] = useState<{ action: CardAction; card: Card } | null>(null);
  const onAction = useCallback((action: CardAction, card: Card) => setOpen({ action, card }), []);
  const close = () => setOpen(null);
  const dialogs = (
    <>
      <BlockCardDialog card={open?.action === 'block' ? open.card : null} onClose={close} />
      <ReissueCardDialog card={open?.action === 'reissue' ? open.card : null} onClose={close} />
    </>
  );
  return { onAction, dialogs };
}
