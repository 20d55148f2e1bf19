import type { ImportReport } from '@loyalty/contracts';
import { CheckCircle2Icon } from 'lucide-react';
import { Fragment } from 'react';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** Enough to fix a file by; a file with more errors is better fixed from the first ones. */
const SHOWN_ERRORS = 200;

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value.toLocaleString('en-US')}</dd>
    </div>
  );
}

/** The counts of a dry run or an import, and its errors by line. */
/** A code may wrap after its underscores at 390 px ("VALIDATION_" / "ERROR"), never inside a word. */
function breakableCode(code: string) {
  return code.split('_').map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, never reordered.
    <Fragment key={i}>
      {i > 0 && (
        <>
          _<wbr />
        </>
      )}
      {part}
    </Fragment>
  ));
}

export function ImportReportView({ report, title }: { report: ImportReport; title: string }) {
  const shown = report.errors.slice(0, SHOWN_ERRORS);
  const verb = report.dryRun ? 'Would create' : 'Created';
  return (
    <section aria-label={title} className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Count label="Rows" value={report.rows} />
        <Count label={verb} value={report.created} />
        <Count label="Unchanged" value={report.unchanged} />
        <Count label="Errors" value={report.failed} />
      </dl>
      {report.errors.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CheckCircle2Icon aria-hidden className="size-4 text-emerald-600 dark:text-emerald-400" />
          No errors: every row is valid.
        </p>
      ) : (
        <div className="space-y-2">
          <h3 className="font-medium">Errors by line</h3>
          <div className="max-h-96 overflow-auto rounded-md border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead className="w-16 sm:w-20">Line</TableHead>
                  <TableHead className="w-32 sm:w-48">Code</TableHead>
                  <TableHead>Message</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {shown.map((error) => (
                  <TableRow key={`${error.line}-${error.code}`}>
                    <TableCell className="tabular-nums">{error.line}</TableCell>
                    <TableCell className="whitespace-normal font-mono text-xs">
                      {breakableCode(error.code)}
                    </TableCell>
                    <TableCell className="whitespace-normal">{error.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {report.failed > shown.length && (
            <p className="text-sm text-muted-foreground">
              Showing the first {shown.length} of {report.failed.toLocaleString('en-US')} errors.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
