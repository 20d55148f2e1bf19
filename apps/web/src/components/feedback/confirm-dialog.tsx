import { type ReactNode, useEffect, useRef } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { useReturnFocus } from '@/lib/use-return-focus';

export interface ConfirmDialogProps {
  open: boolean;
  /** Called with false on Cancel / Escape, ignored while `pending` so a running call is not orphaned. */
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  destructive?: boolean;
  onConfirm: () => void;
}

/**
 * A yes/no question before an action that changes data; the confirm button stays disabled while it runs.
 * A second click before that (a double click: both clicks arrive before React renders `pending`) is ignored,
 * so callers need no guard of their own.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  pendingLabel,
  pending,
  destructive = false,
  onConfirm,
}: ConfirmDialogProps) {
  const returnFocus = useReturnFocus();
  // Set in the click itself: `pending` comes with the next render, after a double click's second click.
  const confirming = useRef(false);
  // A render that shows the action not running (it ended, or never started) frees the button again; one
  // after the first click already shows it running, as the caller's mutation reports that synchronously.
  useEffect(() => {
    if (!pending) confirming.current = false;
  });
  const confirm = () => {
    if (confirming.current || pending) return;
    confirming.current = true;
    onConfirm();
  };
  return (
    <AlertDialog open={open} onOpenChange={(next) => (next || !pending) && onOpenChange(next)}>
      <AlertDialogContent {...returnFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button variant={destructive ? 'destructive' : 'default'} pending={pending} onClick={confirm}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
