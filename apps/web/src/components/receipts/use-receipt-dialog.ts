import { useCallback, useState } from 'react';
import type { ReceiptDialogProps } from './receipt-dialog';

/**
 * State for a screen that opens the receipt dialog from a row: `view(operation)` opens it at once (the
 * dialog shows a skeleton while it loads), `dialogProps` go on <ReceiptDialog />. The id is kept after
 * closing so the content does not vanish during the closing animation.
 */
export function useReceiptDialog() {
  const [operationId, setOperationId] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const view = useCallback((operation: { id: string }) => {
    setOperationId(operation.id);
    setOpen(true);
  }, []);
  const dialogProps: ReceiptDialogProps = { operationId, open, onOpenChange: setOpen };
  return { view, dialogProps, close: () => setOpen(false), loadingOf: null };
}
