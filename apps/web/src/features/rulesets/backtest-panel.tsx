import type { BacktestResponse, Ruleset } from '@loyalty/contracts';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { OptionSelect } from '@/components/ui/option-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';
import { cn } from '@/lib/utils';
import { backtestRuleset } from './rulesets-api';

// recharts is heavy: its chunk loads only once a backtest has an answer to draw, never with the route.
const backtestChart = lazyModule(() => import('./backtest-chart'));

function BacktestChartSlot({ rows }: { rows: BacktestResponse['byCategory'] }) {
  const chart = useLazyModule(backtestChart);
  return chart ? <chart.default rows={rows} /> : <Skeleton className="h-48 w-full" />;
}

const ranges = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
] as const;
type Range = (typeof ranges)[number]['value'];

/**
 * 'Backtest': what this ruleset would have given the stored receipts of the range, against what they earned.
 * The server recomputes them with the accrual's own computation and writes nothing.
 */
export function BacktestPanel({ ruleset }: { ruleset: Ruleset }) {
  const [range, setRange] = useState<Range>('30');
  const mutation = useMutation({
    mutationFn: (days: number) => {
      const to = new Date();
      const from = new Date(to.getTime() - days * 86_400_000);
      return backtestRuleset(ruleset.id, { from: from.toISOString(), to: to.toISOString() });
    },
    // It writes nothing: leaving while it runs is not asked about.
    meta: { errorTitle: 'Backtest failed', readOnly: true },
  });
  const button = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Run Backtest disables itself while it runs, which drops a keyboard user's focus on <body>, out of the
  // details dialog: it goes to the result's heading when the answer arrives, or back to the button after a
  // failure.
  useEffect(() => {
    const active = document.activeElement;
    if (active !== null && active !== document.body && active !== button.current) return;
    if (mutation.isSuccess) heading.current?.focus();
    else if (mutation.isError) button.current?.focus();
  }, [mutation.isSuccess, mutation.isError]);

  return (
    <section aria-labelledby="backtest-title" className="grid gap-3 border-t pt-4">
      <h3 id="backtest-title" className="text-sm font-medium">
        Backtest
      </h3>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-2">
          <Label htmlFor="backtest-range">Range</Label>
          <OptionSelect
            id="backtest-range"
            className="w-44"
            value={range}
            onChange={(next: unknown) => {
              setRange(next as Range);
              mutation.reset();
            }}
            options={ranges}
          />
        </div>
        <Button
          ref={button}
          type="button"
          onClick={() => mutation.mutate(Number(range))}
          disabled={mutation.isPending}
        >
          {mutation.isPending ? 'Running...' : 'Run Backtest'}
        </Button>
      </div>
      <div aria-live="polite" aria-busy={mutation.isPending}>
        {mutation.isPending && <Skeleton className="h-24 w-full" />}
        {mutation.data && (
          <div className="grid gap-3">
            <h4 ref={heading} tabIndex={-1} className="text-sm font-medium outline-none">
              Backtest result
            </h4>
            <BacktestResult result={mutation.data} />
          </div>
        )}
      </div>
    </section>
  );
}

function BacktestResult({ result }: { result: BacktestResponse }) {
  if (result.receipts === 0)
    return <p className="text-sm text-muted-foreground">No receipts in this range: nothing to compare.</p>;
  const figures = [
    ['Receipts', formatNumber(result.receipts)],
    ['Accounts', formatNumber(result.accounts)],
    ['Current points', formatNumber(result.currentPoints)],
    ['Candidate points', formatNumber(result.candidatePoints)],
  ] as const;
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Backtest result">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="text-sm font-medium tabular-nums">{value}</dd>
          </div>
        ))}
        <div>
          <dt className="text-xs text-muted-foreground">Delta</dt>
          <dd className={cn('text-sm font-medium tabular-nums', result.delta < 0 && 'text-destructive')}>
            {result.delta > 0 ? '+' : ''}
            {formatNumber(result.delta)}
          </dd>
        </div>
      </dl>
      <BacktestChartSlot rows={result.byCategory} />
      <div className="overflow-x-auto rounded-md border">
        <Table aria-label="Backtest by category">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Category</TableHead>
              <TableHead className="text-right">Receipts</TableHead>
              <TableHead className="text-right">Current</TableHead>
              <TableHead className="text-right">Candidate</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {result.byCategory.map((row) => (
              <TableRow key={row.category ?? ''}>
                <TableCell>
                  {row.category ?? <span className="text-muted-foreground">(No category)</span>}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(row.receipts)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(row.currentPoints)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(row.candidatePoints)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
