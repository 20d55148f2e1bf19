import type { EarningRule, Ruleset } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { getCurrentUser } from '@/lib/current-user';
import { formatNumber } from '@/lib/format';
import { formatZonedDateTime, programmeTimeLabel, programmeTimeZone } from '@/lib/programme-time';
import { settingsQuery } from '@/lib/settings-api';
import { useReturnFocus } from '@/lib/use-return-focus';
import { BacktestPanel } from './backtest-panel';
import { WEEKDAYS } from './rule-fieldset';
import { RulesetStatusBadge } from './ruleset-status-badge';
import { storesQuery } from './rulesets-api';

const heads = ['Name', 'Percent', 'Categories', 'SKUs', 'Stores', 'Days', 'Hours'];
const any = <span className="text-muted-foreground">Any</span>;

/** A ruleset's details: its base, minimum spend, caps and every rule; and, for managers, its backtest. */
export function RulesetDetailsDialog({ ruleset, onClose }: { ruleset: Ruleset | null; onClose: () => void }) {
  const returnFocus = useReturnFocus();
  const hasStores = (ruleset?.config.rules ?? []).some((r) => r.posIds?.length);
  const stores = useQuery({ ...storesQuery(), enabled: hasStores });
  const storeName = (id: string) => stores.data?.find((s) => s.id === id)?.name ?? `${id.slice(0, 8)}…`;
  const { canManage } = getCurrentUser();
  // Active From on the programme's clocks, as the form takes it and the list shows it.
  const timeZone = programmeTimeZone(useQuery(settingsQuery()).data);

  return (
    <Dialog open={ruleset !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-h-[90dvh] max-w-4xl grid-cols-[minmax(0,1fr)] overflow-y-auto"
        {...returnFocus}
      >
        <DialogHeader>
          <DialogTitle>Ruleset Version {ruleset?.version}</DialogTitle>
          <DialogDescription>How a purchase earns points under this ruleset.</DialogDescription>
        </DialogHeader>
        {ruleset && (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Ruleset">
              <Field label="Status">
                <RulesetStatusBadge status={ruleset.status} />
              </Field>
              <Field label="Active From">
                {formatZonedDateTime(ruleset.activeFrom, timeZone, 'Not set')}
                {ruleset.activeFrom && (
                  <span className="block text-xs font-normal text-muted-foreground">
                    {programmeTimeLabel(timeZone)}
                  </span>
                )}
              </Field>
              <Field label="Accrual %">{formatNumber(ruleset.config.percent)}%</Field>
              <Field label="Minimum Spend">{amount(ruleset.config.minSpend)}</Field>
              <Field label="Max Points per Receipt">{amount(ruleset.config.maxPointsPerReceipt)}</Field>
              <Field label="Max Points per Card per Day">
                {amount(ruleset.config.maxPointsPerCardPerDay)}
              </Field>
            </dl>
            <section aria-labelledby="ruleset-rules-title" className="grid gap-2">
              <h3 id="ruleset-rules-title" className="text-sm font-medium">
                Rules ({ruleset.config.rules.length})
              </h3>
              {ruleset.config.rules.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No rules: every line earns the Accrual Percentage.
                </p>
              ) : (
                <div className="overflow-x-auto rounded-md border">
                  <Table aria-label="Rules">
                    <TableHeader>
                      <TableRow className="hover:bg-transparent">
                        {heads.map((head) => (
                          <TableHead key={head} className={head === 'Percent' ? 'text-right' : undefined}>
                            {head}
                          </TableHead>
                        ))}
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {ruleset.config.rules.map((rule) => (
                        <RuleRow key={rule.name} rule={rule} storeName={storeName} />
                      ))}
                    </TableBody>
                  </Table>
                </div>
              )}
            </section>
            {canManage && <BacktestPanel ruleset={ruleset} />}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function RuleRow({ rule, storeName }: { rule: EarningRule; storeName: (id: string) => string }) {
  const list = (values: string[] | undefined) => (values?.length ? values.join(', ') : any);
  return (
    <TableRow>
      <TableCell className="font-medium">{rule.name}</TableCell>
      <TableCell className="text-right tabular-nums">{formatNumber(rule.percent)}%</TableCell>
      <TableCell>{list(rule.categories)}</TableCell>
      <TableCell>
        {rule.skus?.length ? <span className="font-mono text-xs">{rule.skus.join(', ')}</span> : any}
      </TableCell>
      <TableCell>{list(rule.posIds?.map(storeName))}</TableCell>
      <TableCell>{list(rule.daysOfWeek?.map((d) => WEEKDAYS[d - 1]!))}</TableCell>
      <TableCell className="tabular-nums">
        {rule.hours ? `${rule.hours.from}–${rule.hours.to}` : any}
      </TableCell>
    </TableRow>
  );
}

const amount = (value: number | null) => (value === null ? 'Not set' : formatNumber(value));

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm font-medium">{children}</dd>
    </div>
  );
}
