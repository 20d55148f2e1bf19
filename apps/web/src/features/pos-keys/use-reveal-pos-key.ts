import type { PosKey } from '@loyalty/contracts';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import { revealPosKey } from './pos-keys-api';

/**
 * 'View API Key': the reveal runs from the menu click, never from an effect, so one click is one audited
 * reveal (an effect would run twice under StrictMode). Closing drops the key from memory.
 */
export function useRevealPosKey() {
  const [posKey, setPosKey] = useState<PosKey | null>(null);
  const mutation = useMutation({
    mutationFn: (target: PosKey) => revealPosKey(target.id),
    meta: { errorTitle: 'Failed to reveal API key' },
    onSuccess: () => toast.success('API key revealed and logged for audit'),
  });
  const { mutate } = mutation;
  const open = useCallback(
    (target: PosKey) => {
      setPosKey(target);
      mutate(target);
    },
    [mutate],
  );
  return {
    posKey,
    open,
    retry: () => posKey && mutation.mutate(posKey),
    close: () => {
      setPosKey(null);
      mutation.reset();
    },
    key: mutation.data?.key ?? null,
    isPending: mutation.isPending,
    error: mutation.error,
  };
}

export type RevealState = ReturnType<typeof useRevealPosKey>;
