import { type Ruleset, rulesetListQuery } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { PageHeader } from '@/components/layout/page-header';
import { buildUrl } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { programmeTimeZone } from '@/lib/programme-time';
import { settingsQuery } from '@/lib/settings-api';
import { CreateRulesetForm } from './create-ruleset-form';
import { RetireRulesetDialog } from './retire-ruleset-dialog';
import { RulesetDetailsDialog } from './ruleset-details-dialog';
import { rulesetActionsColumn } from './ruleset-row-actions';
import { RulesetStatusFilter } from './ruleset-status-filter';
import { type RulesetFilters, rulesetsListQuery } from './rulesets-api';
import { rulesetColumns } from './rulesets-columns';

/** Spec section 2 "Rulesets": create (MANAGER, ADMIN) and list with a status filter. */
export function RulesetsPage() {
  const table = useServerTable<RulesetFilters>({
    initialFilters: { status: undefined },
    defaultSort: [{ id: 'version', desc: true }],
    inUrl: rulesetListQuery,
  });
  const query = useQuery(rulesetsListQuery(table.params));
  const { canManage: canCreate, isAdmin } = getCurrentUser();
  const [retiring, setRetiring] = useState<Ruleset | null>(null);
  const [open, setOpen] = useState<Ruleset | null>(null);
  // Active From shows on the programme's clocks (UTC, the server's default, until settings answer).
  const timeZone = programmeTimeZone(useQuery(settingsQuery()).data);
  const columns = useMemo(() => {
    const base = rulesetColumns(setOpen, timeZone);
    return isAdmin ? [...base, rulesetActionsColumn(setRetiring)] : base;
  }, [isAdmin, timeZone]);

  return (
    <>
      <PageHeader title="Rulesets" description="How many points a purchase earns, and from when." />
      {canCreate && <CreateRulesetForm />}
      <DataTable
        label="Rulesets"
        exportList={{ name: 'rulesets', url: buildUrl('/api/v1/rulesets', table.params) }}
        columns={columns}
        controls={table}
        getRowId={(ruleset) => ruleset.id}
        {...fromQuery(query)}
        errorText="Failed to load rulesets"
        searchable
        searchLabel="Search rulesets"
        searchPlaceholder="Search version..."
        filters={
          <RulesetStatusFilter value={table.filters.status} onChange={(s) => table.setFilter('status', s)} />
        }
      />
      <RetireRulesetDialog ruleset={retiring} onClose={() => setRetiring(null)} />
      <RulesetDetailsDialog ruleset={open} onClose={() => setOpen(null)} />
    </>
  );
}
