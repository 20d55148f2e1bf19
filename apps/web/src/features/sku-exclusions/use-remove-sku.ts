import type { ExcludedSku } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { removeExcludedSku, skuKeys } from './sku-exclusions-api';

/**
 * Remove asks first, like every other change in the console (issue 16: it used to delete at once).
 * `ask` opens the confirmation for a row; `confirm` runs the removal, and the dialog stays open (its
 * button disabled) until the server answers.
 */
export function useRemoveSku(rulesetId: string | undefined) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<ExcludedSku | null>(null);
  const mutation = useMutation({
    mutationFn: (sku: ExcludedSku) => removeExcludedSku(rulesetId as string, sku.sku),
    onSuccess: () => {
      toast.success('SKU removed from exclusions');
      setAsking(null);
      if (rulesetId) void queryClient.invalidateQueries({ queryKey: skuKeys.ruleset(rulesetId) });
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
