import type { CSSProperties, ReactNode } from 'react';
import { useReturnFocus } from '@/lib/use-return-focus';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from './sheet';

/** The sidebar under 768 px: an off-canvas sheet with its own open state. Its own chunk: see sidebar.tsx. */
export function SidebarSheet({
  label,
  width,
  open,
  onOpenChange,
  children,
}: {
  label: string;
  width: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  // Opened by the top bar's 'Toggle sidebar' (or Ctrl+B), not a Radix Trigger: without this, closing leaves
  // focus on <body>.
  const returnFocus = useReturnFocus();
  const onCloseAutoFocus = (event: Event) => {
    // This runs once the sheet has left the document, so focus it held is on <body> by now. Anywhere else,
    // something took it meanwhile — a link in the sheet navigated and the new screen's heading took it
    // (lib/route-focus.ts) — and it stays there.
    const active = document.activeElement;
    if (active && active !== document.body) {
      event.preventDefault();
      return;
    }
    returnFocus.onCloseAutoFocus(event);
  };
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        onOpenAutoFocus={returnFocus.onOpenAutoFocus}
        onCloseAutoFocus={onCloseAutoFocus}
        side="left"
        data-slot="sidebar"
        data-mobile="true"
        className="w-(--sidebar-width) bg-sidebar p-0 text-sidebar-foreground"
        style={{ '--sidebar-width': width } as CSSProperties}
      >
        <SheetHeader className="sr-only">
          <SheetTitle>{label}</SheetTitle>
          <SheetDescription>Navigate between the screens of the console.</SheetDescription>
        </SheetHeader>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
