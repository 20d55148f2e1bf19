import type { ExcludedSku } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { isStaleDataError } from '@/lib/api-client';
import { removeExcludedSku, skuKeys } from './sku-exclusions-api';

/**
 * Remove asks first, like every other change in the console (issue 16: it used to delete at once).
 * `ask` opens the confirmation for a row; `confirm` runs the removal, and the dialog stays open (its
 * button disabled) until the server answers.
 */
export function useRemoveSku(rulesetId: string | undefined) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<ExcludedSku | null>(null);
  const refresh = () => {
    if (rulesetId) void queryClient.invalidateQueries({ queryKey: skuKeys.ruleset(rulesetId) });
  };
  const mutation = useMutation({
    mutationFn: (sku: ExcludedSku) => removeExcludedSku(rulesetId as string, sku.sku),
    meta: { errorTitle: 'Failed to remove SKU' },
    onSuccess: () => {
      toast.success('SKU removed from exclusions');
      setAsking(null);
      refresh();
    },
    // Removed meanwhile, or its ruleset gone (404): the question can no longer succeed; the list reloads.
    onError: (error) => {
      if (!isStaleDataError(error)) return;
      setAsking(null);
      refresh();
    },
  });
  return {
    asking,
    ask: setAsking,
    cancel: () => setAsking(null),
    confirm: () => asking && mutation.mutate(asking),
    pending: mutation.isPending,
  };
}
