import type { Card } from '@loyalty/contracts';
import { BanIcon, MoreHorizontalIcon, RefreshCcwIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

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
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={`Actions for card ${card.number}`}>
          <MoreHorizontalIcon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="font-mono">{card.number}</DropdownMenuLabel>
        <DropdownMenuSeparator />
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
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
