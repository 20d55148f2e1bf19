import { useQuery } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { getCurrentUser } from '@/lib/current-user';
import { AddSkuDialog } from './add-sku-dialog';
import { RulesetChooser } from './ruleset-chooser';
import { rulesetChooserQuery, skuCategoriesQuery } from './sku-exclusions-api';
import { SkuTable } from './sku-table';

/** Spec section 2 "SKU Exclusions": per ruleset, the latest (highest version) chosen first. */
export function SkuExclusionsPage() {
  const rulesetsQuery = useQuery(rulesetChooserQuery());
  const rulesets = rulesetsQuery.data?.content ?? [];
  const [chosenId, setChosenId] = useState<string | null>(null);
  // Sorted by version, descending: the first is the latest.
  const ruleset = rulesets.find((r) => r.id === chosenId) ?? rulesets[0];
  const canManage = getCurrentUser().canManage;
  const [adding, setAdding] = useState(false);
  const categoriesQuery = useQuery({
    ...skuCategoriesQuery(ruleset?.id ?? ''),
    enabled: ruleset !== undefined,
  });
  const categories = categoriesQuery.data ?? [];

  return (
    <>
      <PageHeader
        title="SKU Exclusions"
        description="Products that earn no points under a ruleset."
        actions={
          canManage &&
          ruleset && (
            <Button onClick={() => setAdding(true)}>
              <PlusIcon />
              Add SKU
            </Button>
          )
        }
      />
      {rulesetsQuery.isPending ? (
        <Skeleton className="h-9 w-72" />
      ) : ruleset ? (
        <>
          <RulesetChooser rulesets={rulesets} value={ruleset} onChange={setChosenId} />
          <SkuTable key={ruleset.id} rulesetId={ruleset.id} categories={categories} canManage={canManage} />
          {canManage && (
            <AddSkuDialog ruleset={ruleset} categories={categories} open={adding} onOpenChange={setAdding} />
          )}
        </>
      ) : (
        <NoRulesets failed={rulesetsQuery.isError} onRetry={() => void rulesetsQuery.refetch()} />
      )}
    </>
  );
}

function NoRulesets({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center"
    >
      {failed ? (
        <>
          <p className="font-medium">Failed to load rulesets</p>
          <Button variant="outline" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </>
      ) : (
        <>
          <p className="font-medium">No rulesets yet.</p>
          <p className="text-sm text-muted-foreground">
            Exclusions belong to a ruleset.{' '}
            <Link to="/rulesets" className="text-brand underline-offset-4 hover:underline">
              Create one on the Rulesets screen.
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
