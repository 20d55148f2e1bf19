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
import { cn } from '@/lib/utils';
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

/** How many values of a list a rule's cell shows before "+K more": a rule may name up to 1,000 SKUs. */
const SHOWN_VALUES = 12;

/**
 * A rule's categories, SKUs or stores, wrapping within the cell: joined on one line, a rule of 1,000 SKUs made
 * the table about 980,000 px wide. The first few show; the rest open under a "+K more" disclosure (a native
 * <details>, operable by keyboard and announced as expandable).
 */
function ValueList({ values, noun, mono }: { values: string[] | undefined; noun: string; mono?: boolean }) {
  if (!values?.length) return any;
  const shown = values.slice(0, SHOWN_VALUES);
  const rest = values.slice(SHOWN_VALUES);
  const className = mono ? 'font-mono text-xs' : undefined;
  return (
    <>
      <span className={className}>{shown.join(', ')}</span>
      {rest.length > 0 && (
        <details className="mt-1">
          <summary className="w-fit cursor-pointer text-xs font-medium text-muted-foreground hover:text-foreground">
            +{formatNumber(rest.length)} more<span className="sr-only"> {noun}</span>
          </summary>
          <span className={className}>{rest.join(', ')}</span>
        </details>
      )}
    </>
  );
}

/**
 * A cell of the Rules table that wraps (anywhere, for a long SKU) instead of widening the table. The widths
 * are on a block inside: a table cell's own min- and max-width do not bind in an automatic table layout.
 */
function WrappingCell({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <TableCell className="whitespace-normal align-top">
      <div className={cn('min-w-32 max-w-72 [overflow-wrap:anywhere]', className)}>{children}</div>
    </TableCell>
  );
}

function RuleRow({ rule, storeName }: { rule: EarningRule; storeName: (id: string) => string }) {
  return (
    <TableRow>
      <WrappingCell className="font-medium">{rule.name}</WrappingCell>
      <TableCell className="text-right align-top tabular-nums">{formatNumber(rule.percent)}%</TableCell>
      <WrappingCell>
        <ValueList values={rule.categories} noun="categories" />
      </WrappingCell>
      <WrappingCell>
        <ValueList values={rule.skus} noun="SKUs" mono />
      </WrappingCell>
      <WrappingCell>
        <ValueList values={rule.posIds?.map(storeName)} noun="stores" />
      </WrappingCell>
      <TableCell className="align-top">
        {rule.daysOfWeek?.length ? rule.daysOfWeek.map((d) => WEEKDAYS[d - 1]!).join(', ') : any}
      </TableCell>
      <TableCell className="align-top tabular-nums">
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
