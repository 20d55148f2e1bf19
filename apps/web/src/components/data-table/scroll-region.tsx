import { MoveHorizontalIcon } from 'lucide-react';
import { useRef } from 'react';
import { useHorizontalOverflow } from './use-horizontal-overflow';

/**
 * A table's scrolling container (`Table`'s `container`): whether its table is wider than it, and, while it
 * is, the props that let a keyboard scroll it too (a region that takes focus; axe: scrollable-region-focusable).
 */
export function useScrollRegion(label: string) {
  const ref = useRef<HTMLDivElement>(null);
  const overflows = useHorizontalOverflow(ref);
  const container = {
    ref,
    ...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (scrolls sideways)` } : {}),
  };
  return { overflows, container };
}

/** Said above a table that scrolls sideways; `actionsStay` when its row actions are pinned on the right. */
export function ScrollHint({ actionsStay = false }: { actionsStay?: boolean }) {
  return (
    <p className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="scroll-hint">
      <MoveHorizontalIcon className="size-3.5" aria-hidden="true" />
      Scroll sideways for more columns{actionsStay && '; row actions stay on the right'}.
    </p>
  );
}
