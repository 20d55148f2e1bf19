import type { Card } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { BanIcon, RefreshCcwIcon } from 'lucide-react';
import { cardNumberColumn, cardStateColumns } from '@/components/cards/card-columns';
import { actionsColumn } from '@/components/data-table';
import { Button } from '@/components/ui/button';

export type CardAction = 'block' | 'reissue';

/** Spec section 4 "Card": active → Block or Reissue; blocked → Reissue only; pending → nothing. */
function CardActions({ card, onAction }: { card: Card; onAction: (action: CardAction, card: Card) => void }) {
  if (card.status === 'pending') return null;
  return (
    <div className="flex justify-end gap-2">
      {card.status === 'active' && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onAction('block', card)}
          aria-label={`Block card ${card.number}`}
        >
          <BanIcon />
          Block
        </Button>
      )}
      {/* A card is replaced once: no Reissue on a card that already has a successor. */}
      {(card.status === 'active' || card.status === 'blocked') && !card.replacedBy && (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onAction('reissue', card)}
          aria-label={`Reissue card ${card.number}`}
        >
          <RefreshCcwIcon />
          Reissue
        </Button>
      )}
    </div>
  );
}

export function accountCardColumns(
  onAction: (action: CardAction, card: Card) => void,
  canManage: boolean,
): ColumnDef<Card>[] {
  const columns: ColumnDef<Card>[] = [
    cardNumberColumn<Card>(),
    ...cardStateColumns<Card>({ sortable: true }),
  ];
  if (canManage) {
    // Spec section 2: the Cards dialog has per-card Block and Reissue buttons (section 4 rules, not the menu's).
    columns.push(actionsColumn((card) => <CardActions card={card} onAction={onAction} />, { width: 200 }));
  }
  return columns;
}
