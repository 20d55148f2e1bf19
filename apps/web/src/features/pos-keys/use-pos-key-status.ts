import type { PosKey, PosKeyStatus } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { posKeysKeys, setPosKeyStatus } from './pos-keys-api';

/** Activate / Deactivate: spec section 8's toasts, and the list refreshed on success. */
export function usePosKeyStatus(onDone?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ posKey, status }: { posKey: PosKey; status: PosKeyStatus }) =>
      setPosKeyStatus({ id: posKey.id, status }),
    meta: { errorTitle: 'Failed to update POS key' },
    onSuccess: (updated) => {
      toast.success(updated.status === 'active' ? 'POS key activated' : 'POS key deactivated');
      void queryClient.invalidateQueries({ queryKey: posKeysKeys.all });
    },
    onSettled: () => onDone?.(),
  });
}
