import type { Ruleset } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { isStaleDataError } from '@/lib/api-client';
import { retireRuleset, rulesetsKeys } from './rulesets-api';

/** Retiring is final: the ruleset is never in force again, and stays listed for history and receipts. */
export function RetireRulesetDialog({ ruleset, onClose }: { ruleset: Ruleset | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: retireRuleset,
    meta: { errorTitle: 'Failed to retire ruleset' },
    onSuccess: (retired) => toast.success(`Ruleset version ${retired.version} retired`),
    // Also after a 409 or 404 (retired meanwhile): the row showed it in force, and offered Retire again.
    onSettled: (_retired, error) => {
      if (!error || isStaleDataError(error))
        void queryClient.invalidateQueries({ queryKey: rulesetsKeys.all });
      onClose();
    },
  });

  return (
    <ConfirmDialog
      open={ruleset !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Retire Ruleset"
      description="A retired ruleset is never in force again. This cannot be undone."
      confirmLabel="Retire"
      pendingLabel="Retiring..."
      destructive
      pending={mutation.isPending}
      onConfirm={() => ruleset && mutation.mutate(ruleset.id)}
    >
      {ruleset && (
        <p className="text-sm">
          Version <span className="font-medium tabular-nums">{ruleset.version}</span>
          {ruleset.inForce && ' is in force now; the next eligible version takes over at once.'}
        </p>
      )}
    </ConfirmDialog>
  );
}
