import type { ExcludedSku } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { removeExcludedSku, skuKeys } from './sku-exclusions-api';

/** Remove acts at once (the spec names no confirmation); the row's button is disabled while it runs. */
export function useRemoveSku(rulesetId: string | undefined) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (sku: ExcludedSku) => removeExcludedSku(rulesetId as string, sku.sku),
    onSuccess: () => {
      toast.success('SKU removed from exclusions');
      if (rulesetId) void queryClient.invalidateQueries({ queryKey: skuKeys.ruleset(rulesetId) });
    },
  });
  return {
    remove: mutation.mutate,
    removing: mutation.isPending ? (mutation.variables?.sku ?? null) : null,
  };
}
